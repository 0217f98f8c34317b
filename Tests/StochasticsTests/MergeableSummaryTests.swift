import Foundation
import Stochastics
import Testing

/// The order-free summary against the exact one, and its merges against one pass.
@Suite struct MergeableSummaryTests {
    /// 100,000 exponential waits in nanoseconds (mean 3 s): the mean to rounding (1e-15, relatively:
    /// the streamed mean is the exact sum's quotient; the exact Summary's, a compensated sum of
    /// doubles), the standard deviation to 1e-12, the extremes exactly, quantiles within α = 0.1 %.
    @Test func agreesWithTheExactSummary() throws {
        let seed: UInt64 = 2024
        let random = try RandomGenerator(seed: seed)
        let values = (0..<100_000).map { _ in Int64(random.exponential(mean: 3e9)) }
        var streamed = MergeableSummary(unit: 1e9)
        for value in values { streamed.add(value) }
        let exact = Summary(values.map { Double($0) / 1e9 }, quantiles: [0.5, 0.99])
        let summary = try #require(streamed.summary(quantiles: [0.5, 0.99]))
        #expect(summary.count == exact.count && !summary.quantilesAreExact)
        #expect(abs(summary.mean - exact.mean) <= 1e-15 * exact.mean, "seed \(seed): \(summary.mean) vs \(exact.mean)")
        #expect(
            abs(summary.standardDeviation - exact.standardDeviation) <= 1e-12 * exact.standardDeviation,
            "seed \(seed): \(summary.standardDeviation) vs \(exact.standardDeviation)")
        #expect(summary.minimum == exact.minimum && summary.maximum == exact.maximum, "seed \(seed)")
        for p in [0.5, 0.99] {
            let (sketched, sample) = (summary.quantile(p)!, exact.quantile(p)!)
            #expect(abs(sketched - sample) <= 0.001 * sample, "seed \(seed), p = \(p): \(sketched) vs \(sample)")
        }
    }

    /// Split into parts in any way, merged in any order: the very same summary, to the bit.
    @Test func mergesInAnyOrderGiveOneSummary() throws {
        let seed: UInt64 = 11
        let random = try RandomGenerator(seed: seed)
        let values = (0..<30_000).map { _ in random.uniform() < 0.1 ? 0 : Int64(random.lognormal(mu: 20, sigma: 2)) }
        var whole = MergeableSummary(unit: 1e9)
        for value in values { whole.add(value) }
        for parts in [2, 3, 7] {
            var pieces = [MergeableSummary](repeating: MergeableSummary(unit: 1e9), count: parts)
            for (index, value) in values.enumerated() { pieces[index % parts].add(value) }
            var merged = MergeableSummary(unit: 1e9)
            for piece in pieces.reversed() { merged.merge(piece) }
            #expect(merged == whole, "\(parts) parts, seed \(seed)")
            #expect(merged.summary() == whole.summary(), "\(parts) parts, seed \(seed)")
        }
        #expect(MergeableSummary().summary() == nil)
    }

    /// Values near 2^62 whose squares' sum outgrows 128 bits: the standard deviation falls back
    /// to doubles and stays within 1e-9 of the exact one (their mean is 1.3 standard deviations
    /// from 0, so the cancellation costs little).
    @Test func squaresBeyond128BitsFallBackToDoubles() throws {
        let values: [Int64] = (0..<64).map { (1 << 61) + Int64($0) * (1 << 55) }
        var streamed = MergeableSummary()
        for value in values { streamed.add(value) }
        let exact = Summary(values.map(Double.init))
        let summary = try #require(streamed.summary())
        #expect(abs(summary.mean - exact.mean) <= 1e-15 * exact.mean)
        #expect(
            abs(summary.standardDeviation - exact.standardDeviation) <= 1e-9 * exact.standardDeviation,
            "\(summary.standardDeviation) vs \(exact.standardDeviation)")
    }
}
