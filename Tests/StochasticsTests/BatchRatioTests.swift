import Testing

@testable import Stochastics

/// The batch-means standard error against a series whose standard error of the mean is known.
///
/// An AR(1) series x_t = φ x_{t-1} + ε_t, ε ~ N(0, 1), has a long-run variance of 1 / (1 − φ)²,
/// so the mean of n of its values has the standard error 1 / ((1 − φ) √n) (asymptotically;
/// at n = 200,000 and φ = 0.9 the correction is of order 1 / ((1 − φ) n), under 0.01 %). The
/// independent-sample standard error, sd / √n with sd² = 1 / (1 − φ²), is √((1 + φ) / (1 − φ)) =
/// 4.36 times smaller: the error batches exist to remove.
///
/// Tolerance: with k batches the estimated variance has about k − 1 degrees of freedom, so the
/// standard error's relative spread is about 1 / √(2 (k − 1)): 12.7 % at k = 32. z = 4 gives a
/// band of ±51 %; the independent-sample error (−77 %) falls well outside it. Batches of 6,250
/// values are 625 correlation times long, so their own bias (of order 1 / ((1 − φ) batch)) is
/// negligible.
@Suite struct BatchRatioTests {
    static let phi = 0.9, n = 200_000, seed: UInt64 = 20_261_205

    /// The series in time order, from a seeded generator.
    static func series(seed: UInt64) throws -> [Double] {
        let random = try RandomGenerator(seed: seed)
        var x = 0.0
        return (0..<n).map { _ in
            x = phi * x + random.normal(standardDeviation: 1)
            return x
        }
    }

    static let expected = 1 / ((1 - phi) * Double(n).squareRoot())

    @Test func batchesOfAKnownSeriesGiveItsStandardError() throws {
        let values = try Self.series(seed: Self.seed)
        var batches = try #require(BatchRatio(units: values.count))
        var stream = StreamingBatchRatio()
        for (t, value) in values.enumerated() {
            batches.add(unit: t, numerator: value, denominator: 1)
            stream.add(numerator: value)
        }
        for (name, error) in [("fixed", batches.standardError), ("streaming", stream.standardError)] {
            #expect(abs(error / Self.expected - 1) < 0.51, "\(name): \(error) vs \(Self.expected) (seed \(Self.seed))")
        }
        // The independent-sample error is 4.36 times too small here: outside the band.
        let mean = values.reduce(0, +) / Double(Self.n)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(Self.n - 1)
        let naive = (variance / Double(Self.n)).squareRoot()
        #expect(naive / Self.expected < 0.49, "naive \(naive) vs \(Self.expected) (seed \(Self.seed))")
        #expect(abs(batches.ratio - mean) < 1e-9)
    }

    /// The batches are contiguous, cover every unit once, and differ in size by at most one.
    @Test(arguments: [64, 65, 100, 1_000, 1_023, 123_457])
    func fixedBatchesAreContiguousAndEven(units: Int) throws {
        let batches = try #require(BatchRatio(units: units))
        var sizes = [Int](repeating: 0, count: BatchRatio.batches)
        var previous = 0
        for index in 0..<units {
            let b = batches.batch(of: index)
            #expect(b == previous || b == previous + 1, "unit \(index) of \(units): batch \(b) after \(previous)")
            sizes[b] += 1
            previous = b
        }
        #expect(previous == BatchRatio.batches - 1)
        #expect(sizes.max()! - sizes.min()! <= 1, "\(sizes)")
        #expect(BatchRatio(units: 63) == nil, "below 2 units a batch there is no estimate")
    }

    /// The stream keeps 32 to 64 batches however many units come, and says nothing below 32.
    @Test func streamingBatchesStayBetween32And64() {
        var stream = StreamingBatchRatio()
        for unit in 1...5_000 {
            stream.add(numerator: Double(unit % 7))
            if unit < 32 {
                #expect(stream.standardError.isNaN)
            } else {
                #expect((32...64).contains(stream.batches), "\(stream.batches) batches after \(unit) units")
                #expect(stream.standardError.isFinite)
            }
        }
    }

    /// A ratio whose denominators vary: the residuals are about R x_b, so a constant ratio has
    /// an error of 0.
    @Test func aConstantRatioHasNoError() throws {
        var batches = try #require(BatchRatio(units: 640))
        for index in 0..<640 {
            batches.add(unit: index, numerator: 3 * Double(index % 5 + 1), denominator: Double(index % 5 + 1))
        }
        #expect(abs(batches.ratio - 3) < 1e-12)
        #expect(batches.standardError < 1e-12)
    }
}
