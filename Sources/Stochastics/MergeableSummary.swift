/// A summary of non-negative integer values (nanoseconds, say) in memory that does not grow with
/// their number, and whose every figure is independent of the order the values come in: exact
/// integer sums for the mean and the variance, the extremes, and a ``QuantileSketch`` (within 0.1 %
/// of the exact sample quantiles, relatively). Two summaries merge into the summary of all their
/// values, so work split across threads in any way gives the very same figures, to the bit.
///
/// The mean is Σx/n from the exact sum. The variance is Σ(x - q)² - r²/n over n - 1, where
/// q = ⌊Σx/n⌋ and r = Σx - nq, the centred sum Σx² - q(Σx + r) being exact in 128 bits; when Σx²
/// outgrows them (values of ~10^19 squared, by the billion) the usual Σx² - (Σx)²/n in doubles
/// stands in.
public struct MergeableSummary: Sendable, Equatable {
    @usableFromInline var _count = 0
    /// Σx: each value is below 2^63 and there are fewer than 2^63 of them, so this never wraps.
    @usableFromInline var sum: UInt128 = 0
    /// Σx² modulo 2^128, and how many times it wrapped.
    @usableFromInline var sumOfSquares: UInt128 = 0
    @usableFromInline var squareWraps = 0
    @usableFromInline var minimum = Int64.max
    @usableFromInline var maximum = Int64.min
    /// The values themselves, not divided by ``unit`` (a division saved per value; the quantiles
    /// are divided once when reported).
    @usableFromInline var sketch: QuantileSketch
    /// Values per unit the summary reports in (1e9: nanoseconds, reported in seconds).
    public let unit: Double

    /// The values added.
    public var count: Int { _count }

    /// An empty summary reporting in units of `unit` values, quantiles to relative accuracy
    /// `accuracy`.
    public init(unit: Double = 1, accuracy: Double = 0.001) {
        precondition(unit > 0 && unit.isFinite, "a unit is positive and finite")
        self.unit = unit
        sketch = QuantileSketch(accuracy: accuracy)
    }

    /// Adds a value of at least 0.
    /// - Complexity: O(1) amortised.
    @inlinable @inline(__always)
    public mutating func add(_ value: Int64) {
        precondition(value >= 0, "a mergeable summary takes values of at least 0")
        _count += 1
        sum &+= UInt128(value)
        let (square, wrapped) = sumOfSquares.addingReportingOverflow(UInt128(value) * UInt128(value))
        sumOfSquares = square
        squareWraps += wrapped ? 1 : 0
        minimum = min(minimum, value)
        maximum = max(maximum, value)
        sketch.add(Double(value))
    }

    /// Adds every value `other` holds.
    public mutating func merge(_ other: MergeableSummary) {
        precondition(other.unit == unit, "summaries merge in one unit")
        _count += other.count
        sum &+= other.sum
        let (square, wrapped) = sumOfSquares.addingReportingOverflow(other.sumOfSquares)
        sumOfSquares = square
        squareWraps += other.squareWraps + (wrapped ? 1 : 0)
        minimum = min(minimum, other.minimum)
        maximum = max(maximum, other.maximum)
        sketch.merge(other.sketch)
    }

    /// The summary at probabilities `quantiles` (quantiles from the sketch); `nil` before the
    /// first value.
    public func summary(quantiles: [Double] = [0.5, 0.9, 0.99]) -> Summary? {
        guard count > 0 else { return nil }
        let n = UInt128(count)
        let (q, r) = sum.quotientAndRemainder(dividingBy: n)
        let mean = (Double(q) + Double(r) / Double(count)) / unit
        let probabilities = quantiles.sorted()
        return Summary(
            count: count, mean: mean,
            standardDeviation: count > 1 ? (squaredDeviations / Double(count - 1)).squareRoot() / unit : .nan,
            minimum: Double(minimum) / unit, maximum: Double(maximum) / unit,
            quantileProbabilities: probabilities, quantileValues: probabilities.map { sketch.quantile($0)! / unit })
    }

    /// Σ(x - mean)², in squared units of the values.
    private var squaredDeviations: Double {
        let n = UInt128(count)
        let (q, r) = sum.quotientAndRemainder(dividingBy: n)
        let (product, wrapped) = q.multipliedReportingOverflow(by: sum + r)
        guard squareWraps == 0, !wrapped, product <= sumOfSquares else {
            let total = Double(sum)
            let squares = Double(sumOfSquares) + Double(squareWraps) * 0x1p128
            return max(0, squares - total * total / Double(count))
        }
        return max(0, Double(sumOfSquares - product) - Double(r) * Double(r) / Double(count))
    }
}
