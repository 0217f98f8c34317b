import Foundation
import Testing

@testable import Stochastics

/// The log-bucketed sketch against exact sample quantiles: its relative error bound holds on skewed
/// and wide-ranging samples at every probability, zeros are kept exactly, and it is deterministic.
@Suite struct QuantileSketchTests {
    /// 200,000 values from a lognormal (σ = 2: nine decades), an exponential and a mixture with a
    /// quarter of zeros; at 21 probabilities the sketch's quantile lies within α = 0.001 of the
    /// exact type-7 one, relatively (zero where it is zero).
    @Test(arguments: ["lognormal", "exponential", "zeros"])
    func everyQuantileIsWithinTheBound(sample name: String) throws {
        let seed: UInt64 = 2019
        let random = try RandomGenerator(seed: seed)
        let values: [Double] = (0..<200_000).map { _ in
            switch name {
            case "lognormal": random.lognormal(mu: 0, sigma: 2)
            case "exponential": random.exponential(mean: 1.5)
            default: random.uniform() < 0.25 ? 0 : random.exponential(mean: 3)
            }
        }
        var sketch = QuantileSketch(accuracy: 0.001)
        for value in values { sketch.add(value) }
        let probabilities = [0, 0.001, 0.01, 0.05] + (1...16).map { Double($0) / 17 } + [0.99, 0.999, 1]
        let exact = Summary(values, quantiles: probabilities)
        #expect(sketch.count == values.count)
        for p in probabilities {
            let (sketched, sample) = (sketch.quantile(p)!, exact.quantile(p)!)
            #expect(
                abs(sketched - sample) <= 0.001 * sample, "\(name), seed \(seed), p = \(p): \(sketched) vs \(sample)")
        }
    }

    /// The same values in the same order give the same sketch; an empty one has no quantile; one
    /// value is every quantile (to within α).
    @Test func smallCases() {
        #expect(QuantileSketch().quantile(0.5) == nil)
        var one = QuantileSketch()
        one.add(2.5)
        #expect(abs(one.quantile(0)! - 2.5) <= 0.0025 && one.quantile(1) == one.quantile(0))
        var a = QuantileSketch()
        var b = QuantileSketch()
        for value in [3.0, 0, 1e-9, 7e5, 0.5] {
            a.add(value)
            b.add(value)
        }
        #expect(a == b && a.quantile(0) == 0 && abs(a.quantile(1)! - 7e5) <= 700)
    }
}

/// Sketches of parts of a sample merge into the sketch of the whole, whatever the split.
@Suite struct QuantileSketchMergeTests {
    @Test func partsMergeIntoTheWhole() throws {
        let seed: UInt64 = 5
        let random = try RandomGenerator(seed: seed)
        let values = (0..<20_000).map { _ in random.uniform() < 0.2 ? 0 : random.lognormal(mu: 0, sigma: 3) }
        var whole = QuantileSketch()
        for value in values { whole.add(value) }
        for parts in [2, 5] {
            var pieces = [QuantileSketch](repeating: QuantileSketch(), count: parts)
            for (index, value) in values.enumerated() { pieces[(index * 7919) % parts].add(value) }
            var merged = QuantileSketch()
            merged.merge(QuantileSketch())
            for piece in pieces { merged.merge(piece) }
            #expect(merged == whole, "\(parts) parts, seed \(seed)")
        }
    }
}

/// The log-linear buckets: every value lies in its bucket, whose value is within α of it; the
/// buckets tile the doubles without gaps; and a binade is split as finely as α needs, no finer.
@Suite struct QuantileSketchBucketTests {
    /// Every 97th bucket edge from 10^-12 to 10^12 and the 4 doubles either side of it, 10^6
    /// lognormal values (σ = 6), subnormals and extremes, at α = 0.001, 0.01 and 10^-5: each lies in
    /// [lower, upper) of its bucket, and (for normal values) the bucket's value is within α of it.
    /// (With k one less, a binade's buckets twice as wide, 1/(2^k + 1) > α and this fails.)
    @Test(arguments: [0.001, 0.01, 1e-5])
    func everyValueLiesInItsBucketWithinTheAccuracy(accuracy: Double) throws {
        let sketch = QuantileSketch(accuracy: accuracy)
        var values: [Double] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude.nextDown, .leastNormalMagnitude, 0x1p-1030, 1e-300, 1, 2,
            0.5, 1e300, .greatestFiniteMagnitude,
        ]
        for index in stride(from: sketch.bucketIndex(1e-12), through: sketch.bucketIndex(1e12), by: 97) {
            var edge = sketch.bucket(index).lower
            for _ in 0..<4 { edge = edge.nextDown }
            for _ in 0..<9 {
                values.append(edge)
                edge = edge.nextUp
            }
        }
        let seed: UInt64 = 3
        let random = try RandomGenerator(seed: seed)
        values += (0..<1_000_000).map { _ in random.lognormal(mu: 0, sigma: 6) }
        var failures = 0
        for value in values {
            let bucket = sketch.bucket(sketch.bucketIndex(value))
            // A subnormal bucket's bounds are rounded to the subnormal doubles, so its upper one may
            // be the value itself.
            let subnormal = value < .leastNormalMagnitude
            let inside = bucket.lower <= value && (value < bucket.upper || subnormal && value == bucket.upper)
            let close = subnormal || abs(bucket.value - value) <= accuracy * value
            if !(inside && close) {
                failures += 1
                if failures <= 5 {
                    Issue.record(
                        "α = \(accuracy), seed \(seed): \(value) in [\(bucket.lower), \(bucket.upper)) as \(bucket.value)"
                    )
                }
            }
        }
        #expect(failures == 0)
    }

    /// Each bucket ends where the next begins (the subnormal ones, the first normal one, and the
    /// last finite one, which ends at ∞), so no value falls between two buckets.
    @Test(arguments: [0.001, 0.3])
    func bucketsTileTheDoubles(accuracy: Double) {
        let sketch = QuantileSketch(accuracy: accuracy)
        let indices = [
            sketch.bucketIndex(.leastNonzeroMagnitude), sketch.bucketIndex(.leastNormalMagnitude.nextDown),
            sketch.bucketIndex(.leastNormalMagnitude), sketch.bucketIndex(1), sketch.bucketIndex(1e300),
        ]
        for index in indices {
            #expect(sketch.bucket(index).upper == sketch.bucket(index + 1).lower, "α = \(accuracy), bucket \(index)")
        }
        let last = sketch.bucketIndex(.greatestFiniteMagnitude)
        #expect(sketch.bucket(last).upper == .infinity && sketch.bucket(last).value.isFinite)
        #expect(sketch.bucket(sketch.bucketIndex(.leastNonzeroMagnitude)).lower <= .leastNonzeroMagnitude)
    }

    /// A binade holds 2^k buckets, k the least with 1/(2^(k+1) + 1) ≤ α: 512 at α = 0.001 (so a
    /// bucket's value is within 1/1025 of its values), 64 at 0.01, 2^16 at 10^-5, 1 at 1/3.
    @Test func aBinadeIsSplitAsFinelyAsTheAccuracyNeeds() {
        for (accuracy, buckets) in [(0.001, 512), (0.01, 64), (1e-5, 1 << 16), (1.0 / 3, 1), (0.3, 2)] {
            let sketch = QuantileSketch(accuracy: accuracy)
            #expect(sketch.bucketIndex(2) - sketch.bucketIndex(1) == buckets, "α = \(accuracy)")
        }
    }
}
