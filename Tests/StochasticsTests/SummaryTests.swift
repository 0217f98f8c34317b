import Testing

@testable import Stochastics

@Suite struct SummaryTests {
    /// Reference values for 1...10 (R: mean, sd, quantile(type = 7)): sd = √(55/6) = 3.0276503540974917,
    /// the 0.9 quantile is 9.1 and the 0.99 quantile 9.91.
    @Test func exactSummaryMatchesReferenceValues() {
        let summary = Summary((1...10).map(Double.init).reversed(), quantiles: [0.99, 0.5, 0.9])
        #expect(summary.count == 10)
        #expect(summary.mean == 5.5)
        #expect(abs(summary.standardDeviation - 3.0276503540974917) < 1e-15)
        #expect(abs(summary.standardError - 3.0276503540974917 / 10.0.squareRoot()) < 1e-15)
        #expect(summary.minimum == 1 && summary.maximum == 10)
        #expect(summary.quantile(0.5) == 5.5)
        #expect(abs(summary.quantile(0.9)! - 9.1) < 1e-12)
        #expect(abs(summary.quantile(0.99)! - 9.91) < 1e-12)
        #expect(summary.quantile(0.25) == nil)
        #expect(summary.quantilesAreExact)
    }

    /// The extremes found in the mean's pass: negative values and ties; with an infinity or a NaN
    /// (whose sum is not finite) they are GSL's, which reports a NaN as both.
    @Test func extremesComeWithTheMeansPass() {
        let tied = Summary([3, -2.5, 7, -2.5, 7, 0])
        #expect(tied.minimum == -2.5 && tied.maximum == 7)
        let infinite = Summary([1, .infinity, -4])
        #expect(infinite.minimum == -4 && infinite.maximum == .infinity)
        let notANumber = Summary([1, .nan, 2], quantiles: [])
        #expect(notANumber.minimum.isNaN && notANumber.maximum.isNaN)
    }

    @Test func singleValueHasNoStandardDeviation() {
        let summary = Summary([3])
        #expect(summary.mean == 3 && summary.standardDeviation.isNaN)
    }

    /// The streaming summary's moments are exact (Welford); its quantiles come from a sketch,
    /// within 0.1 % of the exact sample quantiles of the same 100,000 uniforms (a bound of the
    /// sketch, not a statistical one: no sampling error enters).
    @Test func streamingSummaryAgreesWithTheExactOne() throws {
        let seed: UInt64 = 11
        let random = try RandomGenerator(seed: seed)
        let values = (0..<100_000).map { _ in random.uniform() }
        let streaming = try StreamingSummary()
        for value in values { try streaming.add(value) }
        let estimate = try #require(streaming.summary)
        let exact = Summary(values)
        #expect(estimate.count == exact.count)
        #expect(abs(estimate.mean - exact.mean) < 1e-12)
        #expect(abs(estimate.standardDeviation - exact.standardDeviation) < 1e-12)
        #expect(estimate.minimum == exact.minimum && estimate.maximum == exact.maximum)
        #expect(!estimate.quantilesAreExact)
        for p in [0.5, 0.9, 0.99] {
            let (sketched, sample) = (estimate.quantile(p)!, exact.quantile(p)!)
            #expect(
                abs(sketched - sample) <= 0.001 * sample, "seed \(seed): p = \(p), sketch \(sketched), sample \(sample)"
            )
        }
        #expect(try StreamingSummary().summary == nil)
    }
}

@Suite struct SummaryQuantileTests {
    /// Quantiles found by selection equal type-7 quantiles of the sorted data, for sizes 1 to 300
    /// and data with many ties.
    @Test func selectionAgreesWithSortedInterpolation() throws {
        let seed: UInt64 = 17
        let random = try RandomGenerator(seed: seed)
        let probabilities = [0, 0.01, 0.25, 0.5, 0.9, 0.99, 1]
        for n in [1, 2, 3, 10, 101, 300] {
            for tied in [false, true] {
                let values = (0..<n).map { _ in tied ? Double(Int(random.uniform() * 5)) : random.uniform() }
                let sorted = values.sorted()
                let summary = Summary(values, quantiles: probabilities)
                for p in probabilities {
                    let h = Double(n - 1) * p
                    let j = Int(h.rounded(.down))
                    let expected = j + 1 < n ? sorted[j] + (h - Double(j)) * (sorted[j + 1] - sorted[j]) : sorted[j]
                    #expect(abs(summary.quantile(p)! - expected) <= 1e-15, "seed \(seed), n = \(n), p = \(p)")
                }
                #expect(summary.minimum == sorted.first && summary.maximum == sorted.last)
            }
        }
    }
}

@Suite struct SummaryAccuracyTests {
    /// The two-pass mean and standard deviation agree with GSL's running mean to 1e-12 relative on
    /// a large, skewed sample, and a constant sample gives back its value exactly.
    @Test func momentsAreAccurate() throws {
        let seed: UInt64 = 23
        let random = try RandomGenerator(seed: seed)
        let values = (0..<1_000_000).map { _ in 3 + random.exponential(mean: 0.7) }
        let summary = Summary(values)
        let streaming = try StreamingSummary()
        for value in values { try streaming.add(value) }
        let reference = try #require(streaming.summary)  // Welford's update, in GSL
        #expect(abs(summary.mean - reference.mean) <= 1e-12 * reference.mean, "seed \(seed)")
        #expect(abs(summary.standardDeviation - reference.standardDeviation) <= 1e-12 * reference.standardDeviation)
        let constant = Summary([Double](repeating: 3.1, count: 10_000))
        #expect(constant.mean == 3.1 && constant.standardDeviation == 0)
    }
}

/// Bucketed selection (samples of 2^16 values and more) gives the order statistics sorting gives.
@Suite struct SummaryBucketedSelectionTests {
    /// 200,000 values of four shapes (lognormal over nine decades, a quarter zeros, heavy ties,
    /// one value repeated, so one bucket holds the whole sample) at 9 probabilities: each quantile
    /// is the type-7 interpolation of the sorted sample's order statistics, to the bit.
    @Test(arguments: ["lognormal", "zeros", "ties", "constant"])
    func quantilesAreTheSortedSamplesOnes(sample name: String) throws {
        let seed: UInt64 = 29
        let random = try RandomGenerator(seed: seed)
        let n = 200_000
        let values: [Double] = (0..<n).map { _ in
            switch name {
            case "lognormal": random.lognormal(mu: 0, sigma: 2)
            case "zeros": random.uniform() < 0.25 ? 0 : random.exponential(mean: 3)
            case "ties": Double(Int(random.uniform() * 7)) * 0.125
            default: 0.3
            }
        }
        let probabilities = [0, 1e-5, 0.25, 0.5, 0.5, 0.9, 0.99, 0.99999, 1]
        let sorted = values.sorted()
        let summary = Summary(values, quantiles: probabilities)
        for p in probabilities {
            let h = Double(n - 1) * p
            let j = Int(h.rounded(.down))
            let expected = h > Double(j) ? sorted[j] + (h - Double(j)) * (sorted[j + 1] - sorted[j]) : sorted[j]
            #expect(summary.quantile(p)! == expected, "\(name), seed \(seed), p = \(p)")
        }
        #expect(summary.minimum == sorted.first && summary.maximum == sorted.last)
    }

    /// A negative value or a −0 (the sign bit set) leaves the order statistics to quickselect, and
    /// they still come out right; without them, the buckets give the sorted sample's.
    @Test func signedValuesFallBackToQuickselect() throws {
        let seed: UInt64 = 31
        let random = try RandomGenerator(seed: seed)
        var values = (0..<100_000).map { _ in random.uniform() }
        values[500] = -0.0
        values.withUnsafeMutableBufferPointer { buffer in
            #expect(Summary.orderStatistics(of: buffer, ranks: [0, 50_000]) == nil, "seed \(seed)")
        }
        values[500] = -1
        let sorted = values.sorted()
        let summary = Summary(values, quantiles: [0, 0.5])
        #expect(
            summary.quantile(0) == -1
                && summary.quantile(0.5) == sorted[49_999] + 0.5 * (sorted[50_000] - sorted[49_999]))
        values[500] = 0.5
        let ranks = [0, 1, 99_998, 99_999]
        let expected = ranks.map { values.sorted()[$0] }
        values.withUnsafeMutableBufferPointer { buffer in
            #expect(Summary.orderStatistics(of: buffer, ranks: ranks) == expected, "seed \(seed)")
        }
    }
}
