import BackoffPolicies
import Testing

@testable import RetrySimulation

/// The simulator against the retrial queue's chain, on a seeded sweep of random Markovian
/// scenarios: every figure of the chain that a run also measures, over 16 runs each
/// (``SixteenRuns``: t(15, 0.9995) = 4.07 standard errors of the runs' mean).
@Suite(.slow) struct RetrialQueueSimulationTests {
    /// One drawn scenario: c workers of exponential service of mean 10 ms (μ = 100), K places,
    /// Poisson arrivals at a load u (a share of c μ, from half to one and a half of it), and a
    /// policy of n attempts with exponential waits of means b 2^(k−1), capped at 200 ms.
    struct Draw: CustomStringConvertible {
        let workers: Int
        let places: Int
        let attempts: Int
        let baseMilliseconds: Int
        let load: Double

        var rate: Double { load * Double(workers) * 100 }

        var description: String {
            "c = \(workers), K = \(places), n = \(attempts), b = \(baseMilliseconds) ms, λ = \(rate)/s (u = \(load))"
        }

        /// A run of about 24,000 requests: the runs start empty and the chain mixes within a
        /// second, a warm-up and drain below 1 % of the window's requests at the lowest rate.
        func scenario() throws -> Scenario {
            let policy = try BackoffPolicy(
                base: .milliseconds(baseMilliseconds), cap: .milliseconds(200), jitter: .exponential,
                budget: .maxAttempts(attempts))
            let model = CapacityModel(
                workers: workers, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: places)
            return try Scenario(
                clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
                arrivals: .poisson(ratePerSecond: rate, duration: .seconds(24_000 / rate)))
        }
    }

    /// SplitMix64 (Steele, Lea and Flood 2014) from seed 2026: the sweep is the same on every run.
    static let draws: [Draw] = {
        var state: UInt64 = 2026
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
        return (0..<6).map { _ in
            Draw(
                workers: 1 + Int(next() % 3), places: Int(next() % 5), attempts: 1 + Int(next() % 4),
                baseMilliseconds: 5 + Int(next() % 36), load: 0.5 + uniform())
        }
    }()

    /// The six drawn: four with retries (three above capacity), two without, c from 1 to 3 and K
    /// from 0 to 3. A chain with its retry rates 10 % too fast fails 13 of the 16 checks with retries.
    @Test(arguments: draws)
    func theSimulationMatchesTheChain(draw: Draw) throws {
        let scenario = try draw.scenario()
        let queue = try #require(scenario.retrialQueue, "\(draw) is Markovian")
        let exact = try queue.solve()
        var runs: [(attempts: Double, served: Double, wait: Double, response: Double)] = []
        for seed in SixteenRuns.seeds {
            let report = try scenario.run(seed: seed)
            let requests = Double(report.uniqueRequests)
            runs.append(
                (
                    Double(report.attempts) / requests, Double(report.successes) / requests, report.totalWait.mean,
                    report.meanCompletion
                ))
        }
        SixteenRuns.expectMean(runs.map(\.attempts), near: exact.attemptsPerRequest, "\(draw): attempts per request")
        SixteenRuns.expectMean(runs.map(\.served), near: 1 - exact.lostFraction, "\(draw): share served")
        SixteenRuns.expectMean(runs.map(\.wait), near: exact.meanTotalWait, "\(draw): mean total wait")
        SixteenRuns.expectMean(runs.map(\.response), near: exact.meanResponseTime, "\(draw): mean response time")
    }
}
