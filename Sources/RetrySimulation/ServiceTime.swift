/// How long a worker of a ``CapacityModel`` takes to serve one attempt.
public enum ServiceTime: Hashable, Sendable {
    /// Always this many nanoseconds.
    case deterministic(Duration)
    /// Exponential with this mean (nanoseconds). Drawn with `gsl_ran_exponential`.
    case exponential(mean: Duration)
    /// Lognormal with this mean and standard deviation (nanoseconds): exp(N(μ, σ²)) with
    /// σ² = ln(1 + sd²/mean²) and μ = ln(mean) - σ²/2. Drawn with `gsl_ran_lognormal`.
    case lognormal(mean: Duration, standardDeviation: Duration)

    /// The mean service time, in nanoseconds.
    public var mean: Duration {
        switch self {
        case .deterministic(let t): t
        case .exponential(let mean): mean
        case .lognormal(let mean, _): mean
        }
    }
}
