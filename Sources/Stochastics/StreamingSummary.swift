internal import CGSL

/// A running summary in constant memory, for samples too large to keep. Backed by GSL's `gsl_rstat`
/// (mean and variance by Welford's update) with one `gsl_rstat_quantile_workspace` per quantile
/// (the P² algorithm of Jain & Chlamtac 1985: an estimate, not an exact order statistic).
/// Owns its workspaces, freed in `deinit`.
public final class StreamingSummary {
    private let _moments: OpaquePointer
    private let _quantiles: [OpaquePointer]
    public let quantileProbabilities: [Double]

    public init(quantiles: [Double] = [0.5, 0.9, 0.99]) throws(StochasticsError) {
        GSL.prepare()
        guard let moments = gsl_rstat_alloc() else { throw .allocationFailed("a running summary") }
        var workspaces: [OpaquePointer] = []
        let probabilities = quantiles.sorted()
        for p in probabilities {
            guard let workspace = gsl_rstat_quantile_alloc(p) else {
                gsl_rstat_free(moments)
                for allocated in workspaces { gsl_rstat_quantile_free(UnsafeMutablePointer(allocated)) }
                throw .allocationFailed("a running quantile for p = \(p)")
            }
            workspaces.append(OpaquePointer(workspace))
        }
        _moments = OpaquePointer(moments)
        _quantiles = workspaces
        quantileProbabilities = probabilities
    }

    deinit {
        gsl_rstat_free(UnsafeMutablePointer(_moments))
        for workspace in _quantiles { gsl_rstat_quantile_free(UnsafeMutablePointer(workspace)) }
    }

    /// Adds one value. Backed by `gsl_rstat_add` and `gsl_rstat_quantile_add`.
    /// - Complexity: O(q) for q quantiles.
    public func add(_ value: Double) throws(StochasticsError) {
        try GSL.check(gsl_rstat_add(value, UnsafeMutablePointer(_moments)), "gsl_rstat_add")
        for workspace in _quantiles {
            try GSL.check(gsl_rstat_quantile_add(value, UnsafeMutablePointer(workspace)), "gsl_rstat_quantile_add")
        }
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
            quantileValues: _quantiles.map { gsl_rstat_quantile_get(UnsafeMutablePointer($0)) }
        )
    }
}
