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

/// The sketch finds a value's bucket without `log` where the answer is certain: it must be the
/// bucket `log` gives for every value, at the buckets' very edges above all.
@Suite struct QuantileSketchIndexTests {
    static func byLog(_ value: Double, accuracy: Double) -> Int {
        let logGamma = log((1 + accuracy) / (1 - accuracy))
        return Int((log(value) / logGamma).rounded(.up))
    }

    /// Every bucket edge γ^i from 10^-12 to 10^12 and the 4 doubles either side of it, 10^6
    /// lognormal values (σ = 6), subnormals, and extremes, at α = 0.001, 0.01 and 10^-5 (where
    /// `log` decides all).
    @Test(arguments: [0.001, 0.01, 1e-5])
    func theBucketIsLogsBucket(accuracy: Double) throws {
        let sketch = QuantileSketch(accuracy: accuracy)
        let logGamma = log((1 + accuracy) / (1 - accuracy))
        var values: [Double] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300, 1, 2, 0.5, 1e300, .greatestFiniteMagnitude,
        ]
        let edges = Int((log(1e12) / logGamma).rounded(.up))
        for i in stride(from: -edges, through: edges, by: max(1, edges / 20_000)) {
            var edge = exp(Double(i) * logGamma)
            for _ in 0..<4 { edge = edge.nextDown }
            for _ in 0..<9 {
                values.append(edge)
                edge = edge.nextUp
            }
        }
        let seed: UInt64 = 3
        let random = try RandomGenerator(seed: seed)
        values += (0..<1_000_000).map { _ in random.lognormal(mu: 0, sigma: 6) }
        var mismatches = 0
        for value in values where sketch.bucketIndex(value) != Self.byLog(value, accuracy: accuracy) {
            mismatches += 1
            if mismatches <= 5 { Issue.record("α = \(accuracy), seed \(seed): \(value) lands in the wrong bucket") }
        }
        #expect(mismatches == 0)
    }
}
