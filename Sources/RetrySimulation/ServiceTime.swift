/// How long a worker of a ``CapacityModel`` takes to serve one attempt.
public enum ServiceTime: Hashable, Sendable {
    /// Always this many nanoseconds.
    case deterministic(Int64)
    /// Exponential with this mean (nanoseconds). Drawn with `gsl_ran_exponential`.
    case exponential(mean: Int64)
    /// Lognormal with this mean and standard deviation (nanoseconds): exp(N(μ, σ²)) with
    /// σ² = ln(1 + sd²/mean²) and μ = ln(mean) - σ²/2. Drawn with `gsl_ran_lognormal`.
    case lognormal(mean: Int64, standardDeviation: Int64)

    /// The mean service time, in nanoseconds.
    public var mean: Int64 {
        switch self {
        case .deterministic(let t): t
        case .exponential(let mean): mean
        case .lognormal(let mean, _): mean
        }
    }
}
