import BackoffPolicies
import EventSimulation
import RetrySimulation
import Stochastics
import Testing

@Suite struct ScenarioTests {
    static let seed: UInt64 = 99

    func herd(
        clients: Int = 10_000, server: ServerModel, jitter: Jitter = .disabled, attempts: Int = 8,
        cap: Duration? = .seconds(5), bucket: Duration = .milliseconds(10)
    ) throws -> Scenario {
        let policy = try BackoffPolicy(
            base: .milliseconds(100), cap: cap, jitter: jitter, budget: .maxAttempts(attempts))
        return try Scenario(clients: clients, server: server, policy: policy, bucketWidth: bucket)
    }

    func outage(_ milliseconds: Int64) -> ServerModel {
        .outage(until: VirtualTime(nanoseconds: milliseconds * 1_000_000))
    }

    @Test func withoutJitterEveryClientRetriesAtTheSameInstant() throws {
        let simulation = try herd(server: outage(2000))
        let report = try simulation.run(seed: Self.seed)
        // Starts 0, 0.1, 0.3, 0.7, 1.5, 3.1: the sixth attempt, at 3.1 s, is the first after the outage.
        #expect(report.timeline.peakRetryLoad.attempts == 10_000)
        #expect(report.timeline.peakRetryLoad.start == VirtualTime(nanoseconds: 100_000_000))
        #expect(report.attempts == 60_000 && report.successes == 10_000)
        #expect(report.totalWait.mean == 3.1)
        let formula = try #require(simulation.closedForm)
        #expect(formula.attemptsPerClient == 6 && formula.meanTotalWait == 3.1 && formula.successFraction == 1)
    }

    /// Full jitter spreads the first retry uniformly over [0, 100 ms), ten 10 ms buckets, so the
    /// retry peak is near N/10 instead of N; N/4 leaves a wide margin.
    @Test func fullJitterFlattensTheRetryPeak() throws {
        let report = try herd(server: outage(2000), jitter: .full).run(seed: Self.seed)
        #expect(report.timeline.peakRetryLoad.attempts < 10_000 / 4, "seed \(Self.seed)")
        #expect(report.timeline.peakLoad.start == .zero, "the burst of first attempts fills bucket 0")
    }

    @Test(arguments: [Jitter.disabled, .equal, .decorrelated()])
    func anOutageShorterThanTheFirstWaitCostsOneRetry(jitter: Jitter) throws {
        // Every first wait is at least 50 ms (equal: [50, 100] ms; decorrelated: [100, 300] ms).
        let report = try herd(server: outage(40), jitter: jitter).run(seed: Self.seed)
        #expect(report.successes == 10_000 && report.attempts == 20_000, "\(jitter.name)")
    }

    /// 0.1 s + 0.2 s in integer nanoseconds is exactly 0.3 s, so the second retries of the herd fall in
    /// the bucket that starts at 0.3 s (floating seconds would put 0.3 / 0.1 = 2.9999999999999996 in bucket 2).
    @Test func attemptsLandInTheirExactBucket() throws {
        let report = try herd(clients: 100, server: .alwaysFail, attempts: 3, bucket: .milliseconds(100)).run(
            seed: Self.seed)
        #expect(report.timeline.attempts == [100, 100, 0, 100])
        #expect(report.timeline.retries == [0, 100, 0, 100])
        #expect(report.timeline.failures == [100, 100, 0, 100])
    }

    /// Bernoulli failures: attempts per client follow a truncated geometric law with
    /// E[A] = Σ_{k<n} p^k and E[A²] = Σ_{k=1}^{n} (2k - 1) p^(k-1); successes are Binomial(N, 1 - p^n).
    /// Tolerances: 4 standard errors of each.
    @Test(arguments: [0.3, 0.7])
    func bernoulliAttemptsAndSuccessesMatchTheirClosedForms(p: Double) throws {
        let n = 6
        let clients = 20_000
        let simulation = try herd(
            clients: clients, server: .bernoulli(failureProbability: p), jitter: .full, attempts: n)
        let report = try simulation.run(seed: Self.seed)
        let formula = try #require(simulation.closedForm)
        var second = 0.0
        var power = 1.0
        for k in 1...n {
            second += Double(2 * k - 1) * power
            power *= p
        }
        let attemptsSD = (second - formula.attemptsPerClient * formula.attemptsPerClient).squareRoot()
        let attemptsTolerance = 4 * attemptsSD / Double(clients).squareRoot()
        #expect(
            abs(report.attemptsPerClient - formula.attemptsPerClient) <= attemptsTolerance,
            "seed \(Self.seed), p = \(p): \(report.attemptsPerClient) vs \(formula.attemptsPerClient)")
        let q = formula.successFraction
        let successTolerance = 4 * (Double(clients) * q * (1 - q)).squareRoot()
        #expect(
            abs(Double(report.successes) - Double(clients) * q) <= successTolerance,
            "seed \(Self.seed), p = \(p): \(report.successes) vs \(Double(clients) * q)")
        let waitTolerance = 4 * report.totalWait.standardError
        #expect(
            abs(report.totalWait.mean - formula.meanTotalWait) <= waitTolerance,
            "seed \(Self.seed), p = \(p): \(report.totalWait.mean) vs \(formula.meanTotalWait)")
    }

    /// Against an always-failing server every client's total wait is one draw of the policy's
    /// total wait, so the herd's mean matches the closed form within 4 standard errors.
    @Test(arguments: Jitter.allModes + [.exponential])
    func alwaysFailTotalWaitMatchesThePolicyFormula(jitter: Jitter) throws {
        let simulation = try herd(server: .alwaysFail, jitter: jitter, attempts: 6, cap: .milliseconds(800))
        let report = try simulation.run(seed: Self.seed)
        let expected = try #require(simulation.policy.expectedTotalWait)
        let tolerance = max(4 * report.totalWait.standardError, 1e-9)
        #expect(abs(report.totalWait.mean - expected) <= tolerance, "seed \(Self.seed), \(jitter.name)")
        #expect(report.successes == 0 && report.attempts == 60_000)
    }

    @Test func sameSeedSameReportOtherSeedOtherReport() throws {
        let simulation = try herd(clients: 2_000, server: .bernoulli(failureProbability: 0.5), jitter: .decorrelated())
        let first = try simulation.run(seed: 1)
        #expect(first == (try simulation.run(seed: 1)))
        #expect(first != (try simulation.run(seed: 2)))
    }

    @Test func invalidScenariosAreRejected() throws {
        let policy = try BackoffPolicy()
        #expect(throws: SimulationError.noClients(0)) {
            try Scenario(clients: 0, server: .alwaysFail, policy: policy, bucketWidth: .nanoseconds(1))
        }
        #expect(throws: SimulationError.nonPositiveBucket(.zero)) {
            try Scenario(clients: 1, server: .alwaysFail, policy: policy, bucketWidth: .zero)
        }
        #expect(throws: SimulationError.invalidFailureProbability(1.5)) {
            try Scenario(
                clients: 1, server: .bernoulli(failureProbability: 1.5), policy: policy, bucketWidth: .nanoseconds(1))
        }
        // 5.5e9 buckets.
        #expect(throws: SimulationError.self) {
            try Scenario(clients: 1, server: .alwaysFail, policy: policy, bucketWidth: .nanoseconds(1))
        }
    }
}
