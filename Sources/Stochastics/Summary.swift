internal import CGSL

/// Descriptive statistics of a sample: count, mean, standard deviation and error, extremes, quantiles.
///
/// Built either exactly from all values (``init(_:quantiles:)``) or from a ``StreamingSummary`` for
/// samples too large to keep, in which case the quantiles are P² estimates (`quantilesAreExact` false).
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

    /// The exact summary of `values`, which it sorts (pass ownership to avoid a copy).
    ///
    /// Mean and standard deviation are backed by `gsl_stats_mean` and `gsl_stats_sd_m`; quantiles by
    /// `gsl_stats_quantile_from_sorted_data` (linear interpolation between order statistics at
    /// (n - 1) p, Hyndman & Fan type 7).
    /// - Complexity: O(n log n).
    public init(_ values: consuming [Double], quantiles: [Double] = [0.5, 0.9, 0.99]) {
        var data = values
        precondition(!data.isEmpty, "a summary needs at least one value")
        data.sort()
        count = data.count
        let probabilities = quantiles.sorted()
        quantileProbabilities = probabilities
        quantilesAreExact = true
        (mean, standardDeviation, quantileValues) = data.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            let n = buffer.count
            let mean = gsl_stats_mean(base, 1, n)
            let sd = n > 1 ? gsl_stats_sd_m(base, 1, n, mean) : .nan
            return (mean, sd, probabilities.map { gsl_stats_quantile_from_sorted_data(base, 1, n, $0) })
        }
        minimum = data[0]
        maximum = data[data.count - 1]
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
