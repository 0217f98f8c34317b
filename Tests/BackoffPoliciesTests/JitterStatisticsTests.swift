import BackoffPolicies
import Foundation
import RetrySimulation
import Stochastics
import Testing

/// Every closed form checked against simulation. Each check is seeded; the tolerance is z = 4
/// standard errors, so a correct formula fails with probability about 6e-5 per check, and the seed
/// is printed with the numbers when one fails.
@Suite struct JitterStatisticsTests {
    static let seed: UInt64 = 20_150_304

    /// Simulates `runs` requests and returns their total waits in seconds.
    func totalWaits(_ policy: BackoffPolicy, runs: Int, seed: UInt64 = seed) throws -> [Double] {
        var random = try RandomGenerator(seed: seed)
        return (0..<runs).map { _ in Double(drawWaits(policy, using: &random).reduce(0, +)) / 1e9 }
    }

    /// The reference case: base 100 ms, multiplier 2, cap 5 s, 5 attempts, full jitter.
    /// E[W] = (0.1 + 0.2 + 0.4 + 0.8) / 2 = 0.75 s; Var[W] = (0.01 + 0.04 + 0.16 + 0.64) / 12, so
    /// sd = 266.1 ms and one standard error over 10,000 runs is 2.661 ms: tolerance 4 x 2.661 = 10.6 ms.
    @Test func fullJitterMeanIsHalfTheGeometricSeries() throws {
        let policy = try BackoffPolicy(base: .ms(100), cap: .seconds(5), jitter: .full, budget: .maxAttempts(5))
        let moments = try #require(policy.totalWaitMoments)
        #expect(moments.mean == 0.75)
        #expect(abs(moments.standardDeviation - 0.266145) < 1e-6)
        let waits = try totalWaits(policy, runs: 10_000)
        let mean = waits.reduce(0, +) / Double(waits.count)
        let tolerance = 4 * moments.standardDeviation / (10_000.0).squareRoot()
        #expect(abs(mean - 0.75) <= tolerance, "seed \(Self.seed): mean \(mean), tolerance \(tolerance)")
    }

    @Test(arguments: [Jitter.full, .equal, .decorrelated()])
    func everyWaitStaysInItsWindowAndUnderTheCap(jitter: Jitter) throws {
        let policy = try BackoffPolicy(base: .ms(100), cap: .ms(700), jitter: jitter, budget: .maxAttempts(8))
        var random = try RandomGenerator(seed: Self.seed)
        for run in 0..<2_000 {
            var state = BackoffState(policy: policy)
            while true {
                let window = policy.waitWindowNanoseconds(after: state)
                guard let wait = policy.nextWait(after: &state, elapsed: state.totalWait, using: &random) else { break }
                let ns = Double(wait)
                // Waits are rounded to whole nanoseconds, so allow half a nanosecond at each end.
                #expect(ns >= window.lowerBound - 0.5 && ns <= window.upperBound + 0.5, "seed \(Self.seed), run \(run)")
                #expect(wait <= 700_000_000, "seed \(Self.seed), run \(run): wait \(wait) ns above the cap")
                if jitter == .full { #expect(window.lowerBound == 0) }
            }
        }
    }

    /// Mean and variance of each mode against its closed form, with and without a binding cap.
    /// Mean: |x̄ - μ| <= 4 σ/√R. Variance: the sample variance s² has standard error
    /// √((m4 - σ⁴)/R) to first order (m4 the fourth central moment, estimated from the sample);
    /// |s² - σ²| <= 4 such errors.
    @Test(arguments: [
        (Jitter.full, Duration?.some(.seconds(5)), 5), (.full, .ms(500), 8),
        (.equal, .seconds(5), 5), (.equal, .ms(500), 8),
        (.decorrelated(), nil, 5), (.decorrelated(), .seconds(1), 8), (.decorrelated(factor: 2), .ms(300), 12),
        (.upward(fraction: 0.1), .seconds(5), 5), (.upward(fraction: 0.5), .ms(500), 8),
    ])
    func meanAndVarianceMatchTheClosedForm(jitter: Jitter, cap: Duration?, attempts: Int) throws {
        let policy = try BackoffPolicy(base: .ms(100), cap: cap, jitter: jitter, budget: .maxAttempts(attempts))
        let moments = try #require(policy.totalWaitMoments)
        let runs = 200_000
        let waits = try totalWaits(policy, runs: runs)
        let mean = waits.reduce(0, +) / Double(runs)
        let variance = waits.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(runs - 1)
        let fourth = waits.map { pow($0 - mean, 4) }.reduce(0, +) / Double(runs)
        let meanTolerance = 4 * moments.standardDeviation / Double(runs).squareRoot()
        let varianceTolerance = 4 * ((fourth - variance * variance) / Double(runs)).squareRoot()
        let label = "seed \(Self.seed), \(jitter.name), cap \(String(describing: cap)), n = \(attempts)"
        #expect(
            abs(mean - moments.mean) <= meanTolerance, "\(label): mean \(mean) vs \(moments.mean) ± \(meanTolerance)")
        #expect(
            abs(variance - moments.variance) <= varianceTolerance,
            "\(label): variance \(variance) vs \(moments.variance) ± \(varianceTolerance)")
    }

    /// Expected start times E[t_k] against the mean of simulated start times, attempt by attempt.
    @Test func expectedStartTimesMatchSimulation() throws {
        let policy = try BackoffPolicy(
            base: .ms(100), cap: .seconds(1), jitter: .decorrelated(), budget: .maxAttempts(6))
        let expected = try #require(policy.expectedStartTimes)
        var random = try RandomGenerator(seed: Self.seed)
        let runs = 100_000
        var sums = [Double](repeating: 0, count: 6)
        var squares = [Double](repeating: 0, count: 6)
        for _ in 0..<runs {
            var start = 0.0
            for (k, wait) in drawWaits(policy, using: &random).enumerated() {
                start += Double(wait) / 1e9
                sums[k + 1] += start
                squares[k + 1] += start * start
            }
        }
        for k in 1..<6 {
            let mean = sums[k] / Double(runs)
            let sd = (squares[k] / Double(runs) - mean * mean).squareRoot()
            let tolerance = 4 * sd / Double(runs).squareRoot()
            #expect(
                abs(mean - expected[k]) <= tolerance, "seed \(Self.seed), attempt \(k + 1): \(mean) vs \(expected[k])")
        }
    }
}
