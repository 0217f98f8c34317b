import BackoffPolicies
import EventSimulation
import Stochastics
import Testing

@testable import RetrySimulation

/// How a report's standard errors were measured (``StandardErrorMethod``), and what
/// ``Scenario/replicated(_:)`` changes: the standard errors alone.
@Suite struct ReplicationTests {
    func scenario(
        clients: Int = 300, workers: Int = 2, arrivals: Arrivals = .burst, server: ServerModel? = nil
    ) throws -> Scenario {
        let policy = try BackoffPolicy(base: .milliseconds(10), jitter: .full, budget: .maxAttempts(4))
        let capacity = ServerModel.capacity(
            CapacityModel(workers: workers, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 10))
        return try Scenario(
            clients: clients, server: server ?? capacity, policy: policy, bucketWidth: .milliseconds(100),
            arrivals: arrivals)
    }

    @Test func eachKindOfRunSaysHowItsErrorsWereMeasured() throws {
        let independent = try scenario(server: .bernoulli(failureProbability: 0.5)).run(seed: 3)
        #expect(independent.errorMethod == .independentSessions)
        let overTime = try scenario(arrivals: .poisson(ratePerSecond: 150, duration: .seconds(20))).run(seed: 3)
        #expect(overTime.errorMethod == .batchMeans)
        let burst = try scenario().run(seed: 3)
        #expect(burst.errorMethod == .unmeasured && burst.attemptsStandardError.isNaN)
        #expect(burst.meanTotalWaitStandardError.isNaN && burst.successesStandardError.isNaN)
        // Workers to spare: no attempt waited, so the clients never met.
        let spare = try scenario(workers: 1_000).run(seed: 3)
        #expect(spare.errorMethod == .independentSessions && spare.peakQueue == 0 && spare.rejected == 0)
    }

    @Test func replicationsChangeTheStandardErrorsAlone() throws {
        let base = try scenario()
        var once = try base.run(seed: 5)
        let replicated = try base.replicated(4)
        #expect(replicated.replications == 4 && replicated.attemptBound == 4 * base.attemptBound)
        var four = try replicated.run(seed: 5)
        #expect(four.errorMethod == .replications(4))
        // The spread of the first run and three more: computed here from the runs themselves.
        let runs =
            try [once]
            + (1..<4).map { index in try base.run(seed: Scenario.replicationSeed(5, index)) }
        let mean = runs.map(\.attemptsPerClient).reduce(0, +) / 4
        let spread = (runs.map { ($0.attemptsPerClient - mean) * ($0.attemptsPerClient - mean) }.reduce(0, +) / 3)
            .squareRoot()
        #expect(abs(four.attemptsStandardError - spread) <= 1e-12 * max(1, spread), "seed 5")
        #expect(four.attemptsStandardError > 0 && four.successesStandardError > 0)
        // Every other number is the first run's.
        // (Set to the same finite values on both: NaN is unequal to itself.)
        let same = ReplicatedMeans(once)
        once.replaceStandardErrors(.independentSessions, with: same)
        four.replaceStandardErrors(.independentSessions, with: same)
        #expect(four == once)
    }

    @Test(arguments: [0, -1, Scenario.maximumReplications + 1, Int.max, Int.min])
    func aCountOutsideItsRangeIsRefused(count: Int) throws {
        #expect(throws: SimulationError.replicationsOutOfRange(count)) { try scenario().replicated(count) }
    }

    @Test func replicationSeedsAreApartFromTheClientsStreams() {
        let seeds = (1..<1_000).map { Scenario.replicationSeed(7, $0) }
        #expect(Set(seeds).count == seeds.count)
        let clients = Set((0..<100_000).map { SeedDerivation.streamSeed(root: 7, stream: UInt64($0)) })
        #expect(clients.isDisjoint(with: seeds))
    }
}
