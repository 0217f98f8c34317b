import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// The replicas' balancers (``Balancer``): random and round robin against their queues' closed
/// forms, every rule's share of a burst worked out by hand, and the picks themselves.
@Suite struct BalancerTests {
    /// K replicas of one worker, exponential service of mean 10 ms, unbounded queues, Poisson
    /// arrivals for `seconds`, one attempt per request.
    static func scenario(
        _ balancer: Balancer, replicas: Int, rate: Double, seconds: Int = 60, service: ServiceTime? = nil,
        clients: Int = 1, arrivals: Arrivals? = nil
    ) throws -> Scenario {
        let policy = try BackoffPolicy(jitter: .disabled, budget: .maxAttempts(1))
        let model = CapacityModel(
            workers: 1, serviceTime: service ?? .exponential(mean: .milliseconds(10)), queueLimit: 100_000_000,
            replicas: replicas, balancer: balancer)
        return try Scenario(
            clients: clients, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
            arrivals: arrivals ?? .poisson(ratePerSecond: rate, duration: .seconds(seconds)))
    }

    /// The mean response of an E_K/M/1 queue: arrivals Erlang-K spaced at total rate λ (a replica
    /// of K in turn), service rate μ. σ solves σ = (λ/(λ + μ(1 − σ)))^K (GI/M/1), and the
    /// response is exponential of rate μ(1 − σ).
    static func roundRobinResponse(rate: Double, serviceRate: Double, replicas: Int) -> Double {
        var sigma = 0.0
        for _ in 0..<100_000 {
            let next = pow(rate / (rate + serviceRate * (1 - sigma)), Double(replicas))
            if abs(next - sigma) < 1e-15 { break }
            sigma = next
        }
        return 1 / (serviceRate * (1 - sigma))
    }

    /// 8 replicas at 87.5 % load (700 a second, μ = 100). Random: each replica is M/M/1 at rate
    /// 87.5, mean response 1/(μ − λ/K) = 80 ms. Round robin: each is E_8/M/1, 46.58 ms. Each mean
    /// over 16 independent runs of 60 s (42,000 requests each): the standard error is the runs' sd /
    /// √16 and their mean lies within t(15, 0.9995) = 4.07 of them unless the model is wrong. The
    /// runs start empty: the queues relax in about 1/(μ(1 − √ρ)²) = 0.2 s, a bias below 1 % of
    /// 60 s at worst, and the tolerance (about 2 %) takes it.
    @Test(arguments: [Balancer.random, .roundRobin])
    func randomAndRoundRobinMatchTheirQueues(balancer: Balancer) throws {
        let expected =
            balancer == .random ? 1 / (100 - 87.5) : Self.roundRobinResponse(rate: 700, serviceRate: 100, replicas: 8)
        let scenario = try Self.scenario(balancer, replicas: 8, rate: 700)
        var means: [Double] = []
        for seed in SixteenRuns.seeds {
            means.append(try #require(try scenario.run(seed: seed).hedge?.responses.mean))
        }
        SixteenRuns.expectMean(means, near: expected, "\(balancer)")
    }

    /// 40 requests at once to 4 replicas of one worker taking 10 ms: round robin and a full scan
    /// give each replica 10, so the answers come at 10, 20, ..., 100 ms, four at a time. p2c and
    /// random load some replica more: their last answer is later.
    @Test func aBurstIsSharedEvenlyByRoundRobinAndAFullScan() throws {
        func completions(_ balancer: Balancer) throws -> [Int64] {
            let scenario = try Self.scenario(
                balancer, replicas: 4, rate: 0, service: .deterministic(.milliseconds(10)), clients: 40,
                arrivals: .burst)
            let log = RequestLogTests.Collected()
            _ = try scenario.run(seed: 3, requestLog: log)
            return log.records.map { $0.completion.nanoseconds / 1_000_000 }.sorted()
        }
        let expected = (1...10).flatMap { step in [Int64](repeating: Int64(10 * step), count: 4) }
        #expect(try completions(.roundRobin) == expected)
        #expect(try completions(.leastRequest(choices: nil)) == expected)
        #expect(try completions(.random).last! > 100, "seed 3")
    }

    /// Choices help: at 87.5 % load over 8 replicas (seed 1), the mean response falls from random
    /// (80 ms) to p2c to a full scan, each by more than a tenth.
    @Test func moreChoicesAnswerSooner() throws {
        func response(_ balancer: Balancer) throws -> Double {
            try #require(
                try Self.scenario(balancer, replicas: 8, rate: 700, seconds: 30).run(seed: 1).hedge?.responses.mean)
        }
        let (random, p2c, scan) = (
            try response(.random), try response(.leastRequest(choices: 2)), try response(.leastRequest(choices: nil))
        )
        #expect(p2c < 0.9 * random && scan < 0.9 * p2c, "seed 1: \(random), \(p2c), \(scan)")
    }

    /// The picks: a replica a call used is avoided while one is free, the fewest in flight win,
    /// round robin goes in turn, and the counts return to zero as copies end.
    @Test func picksAvoidUsedReplicasAndCountWhatIsInFlight() {
        var uniforms = [0.0, 0.3, 0.6, 0.9].makeIterator()
        func uniform() -> Double { uniforms.next() ?? 0.1 }
        var scan = ReplicaBalancer(.leastRequest(choices: nil), replicas: 4)
        // Every replica empty: from the start drawn (0.0: replica 0), the first of the emptiest.
        #expect(scan.pick(avoids: true, uniform: uniform) { _ in false } == 0)
        // Replica 0 holds one: the scan from replica 1 (0.3) takes replica 1.
        #expect(scan.pick(avoids: true, uniform: uniform) { _ in false } == 1)
        // Replicas 2 and 3 are empty, but 2 is used by this call: 3.
        #expect(scan.pick(avoids: true, uniform: uniform) { $0 == 2 } == 3)
        #expect(scan.inFlight == [1, 1, 0, 1])
        for replica in [0, 1, 3] { scan.ended(at: replica) }
        #expect(scan.inFlight == [0, 0, 0, 0])

        var turns = ReplicaBalancer(.roundRobin, replicas: 3)
        let order = (0..<4).map { _ in turns.pick(avoids: true, uniform: { 0 }, isUsed: { _ in false }) }
        #expect(order == [0, 1, 2, 0])
        #expect(turns.pick(avoids: true, uniform: { 0 }, isUsed: { $0 == 1 }) == 2, "replica 1 used: the next in turn")

        var two = ReplicaBalancer(.leastRequest(choices: 2), replicas: 4)
        _ = two.pick(avoids: true, uniform: { 0.0 }, isUsed: { _ in false })  // replica 0 holds one
        var draws = [0.0, 0.5].makeIterator()
        #expect(
            two.pick(avoids: true, uniform: { draws.next()! }, isUsed: { _ in false }) == 2,
            "0 drawn first, 2 has fewer")
    }
}
