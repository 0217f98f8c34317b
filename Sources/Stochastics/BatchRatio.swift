/// The standard error of a ratio of totals, R = ΣY / ΣX, from the totals of contiguous batches of
/// one run: the method of batch means for a run whose units are not independent.
///
/// Where units interact (requests that share a rate limit's bucket or a server's queue), the
/// spread of the units' own values misstates the spread of their mean: a long queue stays long,
/// so outcomes cluster in time and the independent-sample standard error is too small; a success
/// empties a one-token bucket for the next arrival, so outcomes alternate and it is too large.
/// Units in time order, cut into k contiguous batches each long beside the run's
/// correlation time, give batch totals that are nearly independent. Their residuals about the
/// ratio, d_b = y_b − R x_b, estimate its variance (the ratio estimator's delta method):
///
/// ```
/// Var(R) ≈ k / (k − 1) · Σ_b d_b² / (ΣX)²
/// ```
///
/// With k = 32 the estimate has 31 degrees of freedom: its relative spread is about 1/√62 ≈ 13 %,
/// the price of not assuming independence. For independent units it agrees with the usual
/// standard error on average.
public struct BatchRatio: Hashable, Sendable {
    /// The batches a run is cut into.
    public static let batches = 32

    /// Each batch's totals of the denominator (units, requests) and the numerator.
    private var x: [Double]
    private var y: [Double]
    /// The units, in order, and how many go to each batch (the first `units % batches` one more).
    public let units: Int
    /// Units in a batch of the smaller size, the batches of one more, and the first unit after them.
    private let size: Int, extra: Int, boundary: Int

    /// Totals for `units` units cut into ``batches`` contiguous batches; `nil` when there are fewer
    /// than two units a batch (the batch totals would say little).
    public init?(units: Int) {
        guard units >= 2 * Self.batches else { return nil }
        self.units = units
        let (size, extra) = units.quotientAndRemainder(dividingBy: Self.batches)
        (self.size, self.extra, boundary) = (size, extra, extra * (size + 1))
        x = [Double](repeating: 0, count: Self.batches)
        y = [Double](repeating: 0, count: Self.batches)
    }

    /// The batch of the unit at `index` (0 ..< units): contiguous runs of ⌊units / k⌋ or one more.
    @inline(__always)
    public func batch(of index: Int) -> Int {
        index < boundary ? index / (size + 1) : extra + (index - boundary) / size
    }

    /// The units in `batch`.
    public func units(in batch: Int) -> Int { batch < extra ? size + 1 : size }

    /// The indices of the units in `batch`.
    public func range(of batch: Int) -> Range<Int> {
        let start = batch < extra ? batch * (size + 1) : boundary + (batch - extra) * size
        return start..<(start + units(in: batch))
    }

    /// The standard error of the mean of `values`, units in order, from their contiguous batches
    /// (one pass over the values: no per-unit bookkeeping); NaN below 2 values a batch.
    public static func standardErrorOfMean(_ values: [Double]) -> Double {
        guard let batches = BatchRatio(units: values.count) else { return .nan }
        let ranges = (0..<Self.batches).map(batches.range(of:))
        return standardError(x: ranges.map { Double($0.count) }, y: ranges.map { values[$0].reduce(0, +) })
    }

    /// Adds `numerator` and `denominator` to the totals of the batch of unit `index`.
    @inline(__always)
    public mutating func add(unit index: Int, numerator: Double, denominator: Double) {
        let b = batch(of: index)
        y[b] += numerator
        x[b] += denominator
    }

    /// Adds `numerator` to the numerator total of the batch of unit `index`.
    @inline(__always)
    public mutating func add(unit index: Int, numerator: Double) { y[batch(of: index)] += numerator }

    /// The ratio ΣY / ΣX; NaN when ΣX is 0.
    public var ratio: Double {
        let total = x.reduce(0, +)
        return total > 0 ? y.reduce(0, +) / total : .nan
    }

    /// The standard error of ``ratio`` (see the type's formula); NaN when ΣX is 0.
    public var standardError: Double { Self.standardError(x: x, y: y) }

    /// √(k / (k − 1) Σ_b (y_b − R x_b)²) / ΣX for the batch totals `x` and `y`, R = ΣY / ΣX; NaN
    /// when ΣX is 0 or there are fewer than two batches.
    public static func standardError(x: [Double], y: [Double]) -> Double {
        let total = x.reduce(0, +)
        guard total > 0, x.count > 1 else { return .nan }
        let r = y.reduce(0, +) / total
        let squares = zip(x, y).reduce(0.0) { sum, batch in
            let d = batch.1 - r * batch.0
            return sum + d * d
        }
        let k = Double(x.count)
        return (k / (k - 1) * squares).squareRoot() / total
    }
}
