internal import CGSL

/// Descriptive statistics of a sample: count, mean, standard deviation and error, extremes, quantiles.
///
/// Built either exactly from all values (``init(_:quantiles:)``) or from a ``StreamingSummary`` for
/// samples too large to keep, in which case the quantiles come from a sketch, within 0.1 % of the
/// exact ones (`quantilesAreExact` false).
public struct Summary: Hashable, Sendable {
    public let count: Int
    public let mean: Double
    /// The sample standard deviation (divisor n - 1); NaN for fewer than two values.
    public let standardDeviation: Double
    public let minimum: Double
    public let maximum: Double
    /// The probabilities of ``quantileValues``, ascending.
    public let quantileProbabilities: [Double]
    public let quantileValues: [Double]
    public let quantilesAreExact: Bool

    /// The standard error of the mean, s / √n.
    public var standardError: Double { standardDeviation / Double(count).squareRoot() }

    /// The quantile for probability `p`, if it was one of those requested.
    public func quantile(_ p: Double) -> Double? {
        quantileProbabilities.firstIndex(of: p).map { quantileValues[$0] }
    }

    /// The exact summary of `values`, which it reorders (pass ownership to avoid a copy).
    ///
    /// Mean and standard deviation take two passes over the values: the mean as x_0 + Σ(x - x_0)/n
    /// (deviations from the first value, so a constant sample gives its value exactly and the sum's
    /// rounding scales with the spread, not the level), then Σ(x - mean)²/(n - 1); each sum runs in
    /// four independent lanes. A fifth of the time of GSL's running-mean `gsl_stats_mean`, which
    /// divides at every element, and as accurate as it to 1e-12 relative (tested). The extremes come
    /// with the first pass (`gsl_stats_minmax` finds them when the sum is not finite).
    /// A quantile for probability p interpolates linearly between the order
    /// statistics x_(j) and x_(j+1), j = ⌊(n - 1) p⌋ (Hyndman & Fan type 7, as
    /// `gsl_stats_quantile_from_sorted_data`), found without sorting: `gsl_stats_select` (quickselect)
    /// places each order statistic needed in turn; from 2^16 values that are neither negative nor
    /// NaN, it selects within buckets of the values' bit patterns instead (see
    /// `orderStatistics(of:ranks:)`: the same order statistics for about a third of the work).
    /// - Complexity: O(n) expected, plus O(n) per quantile.
    public init(_ values: consuming [Double], quantiles: [Double] = [0.5, 0.9, 0.99]) {
        var data = values
        self = data.withUnsafeMutableBufferPointer { Summary(reordering: $0, quantiles: quantiles) }
    }

    /// The exact summary of the values in `buffer`, which it reorders in place (for callers that
    /// fill their own memory, from several threads for instance). Same method as ``init(_:quantiles:)``.
    public init(reordering buffer: UnsafeMutableBufferPointer<Double>, quantiles: [Double] = [0.5, 0.9, 0.99]) {
        precondition(!buffer.isEmpty, "a summary needs at least one value")
        let base = buffer.baseAddress!
        let n = buffer.count
        count = n
        let probabilities = quantiles.sorted()
        precondition(probabilities.allSatisfy { (0...1).contains($0) }, "quantile probabilities lie in [0, 1]")
        quantileProbabilities = probabilities
        quantilesAreExact = true
        let first = buffer[0]
        // The extremes come with the first pass, as gsl_stats_minmax finds them (the first of equal
        // values); a NaN or an infinity makes the sum not finite, and GSL then decides them.
        var (low, high) = (first, first)
        let shiftedSum = Self.sum(buffer) { x in
            if x < low { low = x }
            if x > high { high = x }
            return x - first
        }
        if !shiftedSum.isFinite { gsl_stats_minmax(&low, &high, base, 1, n) }
        let mean = first + shiftedSum / Double(n)
        self.mean = mean
        standardDeviation = n > 1 ? (Self.sum(buffer) { ($0 - mean) * ($0 - mean) } / Double(n - 1)).squareRoot() : .nan
        minimum = low
        maximum = high
        // x_(j), and x_(j+1) where p falls between them, for each p: the ranks needed, ascending.
        let positions = probabilities.map { p in Double(n - 1) * p }
        let ranks = Set(
            positions.flatMap { position -> [Int] in
                let j = min(n - 1, Int(position.rounded(.down)))
                return position > Double(j) && j + 1 < n ? [j, j + 1] : [j]
            }
        ).sorted()
        let statistics: [Double]
        if n >= Self.bucketedSelectionThreshold, shiftedSum.isFinite,
            let bucketed = Self.orderStatistics(of: buffer, ranks: ranks)
        {
            statistics = bucketed
        } else {
            // Everything before `settled` is at most the order statistic placed last.
            var settled = 0
            statistics = ranks.map { rank in
                _ = gsl_stats_select(base + settled, 1, n - settled, rank - settled)
                settled = rank
                return buffer[rank]
            }
        }
        let statistic = Dictionary(uniqueKeysWithValues: zip(ranks, statistics))
        quantileValues = positions.map { position -> Double in
            let j = min(n - 1, Int(position.rounded(.down)))
            let lower = statistic[j]!
            guard position > Double(j) && j + 1 < n else { return lower }
            return lower + (position - Double(j)) * (statistic[j + 1]! - lower)
        }
    }

    /// Σ f(x) over the buffer in four lanes (independent additions the processor overlaps).
    @inline(__always)
    private static func sum(_ buffer: UnsafeMutableBufferPointer<Double>, _ f: (Double) -> Double) -> Double {
        var lanes = (0.0, 0.0, 0.0, 0.0)
        var index = 0
        let n = buffer.count
        while index + 4 <= n {
            lanes.0 += f(buffer[index])
            lanes.1 += f(buffer[index + 1])
            lanes.2 += f(buffer[index + 2])
            lanes.3 += f(buffer[index + 3])
            index += 4
        }
        while index < n {
            lanes.0 += f(buffer[index])
            index += 1
        }
        return (lanes.0 + lanes.1) + (lanes.2 + lanes.3)
    }

    /// The summary of `count` copies of one value, without materialising them.
    public init(constant value: Double, count: Int, quantiles: [Double] = [0.5, 0.9, 0.99]) {
        precondition(count >= 1, "a summary needs at least one value")
        self.count = count
        mean = value
        standardDeviation = count > 1 ? 0 : .nan
        minimum = value
        maximum = value
        quantileProbabilities = quantiles.sorted()
        quantileValues = quantiles.map { _ in value }
        quantilesAreExact = true
    }

    init(
        count: Int, mean: Double, standardDeviation: Double, minimum: Double, maximum: Double,
        quantileProbabilities: [Double], quantileValues: [Double]
    ) {
        self.count = count
        self.mean = mean
        self.standardDeviation = standardDeviation
        self.minimum = minimum
        self.maximum = maximum
        self.quantileProbabilities = quantileProbabilities
        self.quantileValues = quantileValues
        quantilesAreExact = false
    }
}
