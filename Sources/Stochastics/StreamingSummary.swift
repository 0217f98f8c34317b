internal import CGSL

/// A running summary in constant memory, for samples too large to keep: the mean and variance by
/// GSL's `gsl_rstat` (Welford's update), and the quantiles from a ``QuantileSketch`` (a
/// log-bucketed histogram, within 0.1 % of the exact sample quantiles, relatively). Owns its GSL
/// workspace, freed in `deinit`.
public final class StreamingSummary {
    private let _moments: OpaquePointer
    private var sketch: QuantileSketch
    public let quantileProbabilities: [Double]

    /// A summary of the quantiles at `quantiles`, kept to relative accuracy `accuracy`.
    public init(quantiles: [Double] = [0.5, 0.9, 0.99], accuracy: Double = 0.001) throws(StochasticsError) {
        GSL.prepare()
        guard let moments = gsl_rstat_alloc() else { throw .allocationFailed("a running summary") }
        _moments = OpaquePointer(moments)
        sketch = QuantileSketch(accuracy: accuracy)
        quantileProbabilities = quantiles.sorted()
    }

    deinit {
        gsl_rstat_free(UnsafeMutablePointer(_moments))
    }

    /// Adds one value, finite and not negative (a total wait). Backed by `gsl_rstat_add`.
    /// - Complexity: O(1) amortised.
    public func add(_ value: Double) throws(StochasticsError) {
        try GSL.check(gsl_rstat_add(value, UnsafeMutablePointer(_moments)), "gsl_rstat_add")
        sketch.add(value)
    }

    /// The number of values added.
    public var count: Int { Int(gsl_rstat_n(UnsafeMutablePointer(_moments))) }

    /// The summary so far; `nil` before the first value.
    public var summary: Summary? {
        let moments = UnsafeMutablePointer<gsl_rstat_workspace>(_moments)
        let n = Int(gsl_rstat_n(moments))
        guard n > 0 else { return nil }
        return Summary(
            count: n,
            mean: gsl_rstat_mean(moments),
            standardDeviation: n > 1 ? gsl_rstat_sd(moments) : .nan,
            minimum: gsl_rstat_min(moments),
            maximum: gsl_rstat_max(moments),
            quantileProbabilities: quantileProbabilities,
            quantileValues: quantileProbabilities.map { sketch.quantile($0)! }
        )
    }
}
