import BackoffPolicies
import EventSimulation
import Foundation
import RetrySimulation
import Testing

/// The load formulas of a burst against an outage, against the deterministic schedule and against
/// simulation.
@Suite(.slow) struct OutageLoadTests {
    static let seed: UInt64 = 31

    /// Without a cap, attempts = 1 + min(n - 1, ⌈log_m(1 + (m - 1) T / b)⌉).
    @Test(arguments: [
        (100, 2.0, 2000, 8), (100, 2.0, 2000, 4), (50, 3.0, 5000, 10), (10, 1.5, 777, 20), (100, 2.0, 0, 5),
    ])
    func attemptsWithoutJitterFollowTheLogarithm(base: Int, multiplier: Double, outage: Int64, attempts: Int) throws {
        let policy = try BackoffPolicy(
            base: .milliseconds(base), schedule: .exponential(multiplier: multiplier), cap: nil,
            budget: .maxAttempts(attempts))
        let scenario = try Scenario(
            clients: 1, server: .outage(until: VirtualTime(nanoseconds: outage * 1_000_000)), policy: policy,
            bucketWidth: .milliseconds(10))
        let b = Double(base) / 1000
        let t = Double(outage) / 1000
        let retries = t == 0 ? 0 : Int((log(1 + (multiplier - 1) * t / b) / log(multiplier)).rounded(.up))
        let expected = Double(1 + min(attempts - 1, retries))
        #expect(scenario.closedForm?.attemptsPerClient == expected)
        #expect(try scenario.run(seed: Self.seed).attemptsPerClient == expected)
        // The convolution reproduces the deterministic case too.
        let load = try #require(
            OutageLoad(
                policy: policy, outageEnd: VirtualTime(nanoseconds: outage * 1_000_000), bucketWidth: .milliseconds(10))
        )
        #expect(abs(load.expectedAttempts - expected) < 1e-9)
    }

    /// Per-bucket means of 100,000 clients against the convolution. A bucket's count is a sum of
    /// independent per-client counts (0 or 1 nearly always), so its sd is at most √(expected);
    /// with ~100 buckets tested, z = 5 keeps the family's false-failure rate near 1e-4. The grid
    /// (δ = w/32) adds an error of order δ/w, allowed as 3 % of the expectation. Under `clamp` the
    /// seventh wait, U(0, 6.4 s) clamped at 5 s, puts an atom of 22 % at the cap: the convolution adds
    /// it as a shifted copy of the law.
    @Test(
        arguments: [
            (Jitter.full, CapMode.nominal), (.equal, .nominal), (.proportional(fraction: 0.5), .nominal),
            (.additive(spread: .milliseconds(200)), .nominal), (.full, .clamp), (.proportional(fraction: 0.5), .clamp),
        ] as [(Jitter, CapMode)])
    func expectedLoadPerBucketMatchesSimulation(jitter: Jitter, capMode: CapMode) throws {
        let policy = try BackoffPolicy(
            base: .milliseconds(100), cap: .seconds(5), jitter: jitter, capMode: capMode, budget: .maxAttempts(8))
        let clients = 100_000
        let scenario = try Scenario(
            clients: clients, server: .outage(until: VirtualTime(nanoseconds: 2_000_000_000)),
            policy: policy, bucketWidth: .milliseconds(50))
        let load = try #require(scenario.expectedLoad)
        let report = try scenario.run(seed: Self.seed)
        var tested = 0
        for (index, perClient) in load.attemptsPerBucket.enumerated() where perClient * Double(clients) >= 50 {
            let expected = perClient * Double(clients)
            let observed = Double(index < report.timeline.bucketCount ? report.timeline.attempts[index] : 0)
            let tolerance = 5 * expected.squareRoot() + 0.03 * expected
            #expect(
                abs(observed - expected) <= tolerance,
                "seed \(Self.seed), \(jitter.name), \(capMode), bucket \(index): \(observed) vs \(expected)")
            tested += 1
        }
        #expect(tested >= 20)
        // Means against the convolution: 4 standard errors estimated by the run itself, plus the grid's
        // bias (δ = w/32 = 1.6 ms: a wait bound off by at most δ/2 moves an attempt across T with
        // probability of order δ/T ~ 1e-3 per retry): 0.01 attempts, 5 ms of total wait, 1 % of successes.
        let formula = try #require(scenario.closedForm)
        #expect(
            abs(report.attemptsPerClient - formula.attemptsPerClient) <= 4 * report.attemptsStandardError + 0.01,
            "seed \(Self.seed): \(report.attemptsPerClient) vs \(formula.attemptsPerClient)")
        #expect(abs(report.totalWait.mean - formula.meanTotalWait) <= 4 * report.totalWait.standardError + 0.005)
        let successes = Double(report.successes)
        let expectedSuccesses = formula.successFraction * Double(clients)
        #expect(abs(successes - expectedSuccesses) <= 4 * report.successesStandardError + 0.01 * expectedSuccesses + 1)
    }

    /// The grid converges: halving the bucket (and so the cell) changes the expected attempts by
    /// less than 1e-3.
    @Test func theGridConverges() throws {
        let policy = try BackoffPolicy(base: .milliseconds(100), jitter: .full, budget: .maxAttempts(8))
        let end = VirtualTime(nanoseconds: 2_000_000_000)
        let coarse = try #require(OutageLoad(policy: policy, outageEnd: end, bucketWidth: .milliseconds(20)))
        let fine = try #require(OutageLoad(policy: policy, outageEnd: end, bucketWidth: .milliseconds(2)))
        #expect(abs(coarse.expectedAttempts - fine.expectedAttempts) < 1e-3)
        #expect(abs(coarse.successProbability - fine.successProbability) < 1e-3)
        #expect(
            abs(coarse.attemptsPerBucket.reduce(0, +) - coarse.expectedAttempts) < 1e-9,
            "the buckets hold every attempt")
    }
}
