import Foundation

/// How long a worker of a ``CapacityModel`` takes to serve one attempt.
public indirect enum ServiceTime: Hashable, Sendable {
    /// Always this many nanoseconds.
    case deterministic(Duration)
    /// Exponential with this mean (nanoseconds). Drawn with `gsl_ran_exponential`.
    case exponential(mean: Duration)
    /// Lognormal with this mean and standard deviation (nanoseconds): exp(N(μ, σ²)) with
    /// σ² = ln(1 + sd²/mean²) and μ = ln(mean) - σ²/2. Drawn with `gsl_ran_lognormal`.
    case lognormal(mean: Duration, standardDeviation: Duration)
    /// Each component with its probability (the weights sum to 1): a draw picks a component with
    /// one uniform, then draws its time. Heavy and mixed tails, as a server that is slow now and
    /// then has (`0.90@fixed:0ms;0.05@fixed:2s;0.04@fixed:5s;0.01@fixed:10s`). A component is not
    /// itself a mixture; a fixed time of 0 is allowed in one (it is served in 1 ns).
    case mixture([Component])

    /// One component of a mixture.
    public struct Component: Hashable, Sendable {
        public let weight: Double
        public let time: ServiceTime

        public init(weight: Double, time: ServiceTime) {
            self.weight = weight
            self.time = time
        }
    }

    /// The mean service time, in nanoseconds.
    public var mean: Duration {
        switch self {
        case .deterministic(let t): t
        case .exponential(let mean): mean
        case .lognormal(let mean, _): mean
        case .mixture(let components):
            .nanoseconds(Int64(components.reduce(0) { $0 + $1.weight * $1.time.mean.nanoseconds }.rounded()))
        }
    }

    /// P(T > t) for `t` in nanoseconds: 1 before 0, and a fixed time's step at the time itself
    /// (a time equal to it is done).
    public func survival(atNanoseconds t: Double) -> Double {
        guard t >= 0 else { return 1 }
        switch self {
        case .deterministic(let fixed): return t < fixed.nanoseconds ? 1 : 0
        case .exponential(let mean): return exp(-t / mean.nanoseconds)
        case .lognormal:
            guard t > 0 else { return 1 }
            let (mu, sigma) = logParameters
            guard sigma > 0 else { return t < exp(mu) ? 1 : 0 }
            return 0.5 * erfc((log(t) - mu) / (sigma * 2.0.squareRoot()))
        case .mixture(let components):
            return components.reduce(0) { $0 + $1.weight * $1.time.survival(atNanoseconds: t) }
        }
    }

    /// The times at which the survival function jumps (a fixed time's, in a mixture too), in
    /// nanoseconds: a quadrature splits its integrals there.
    public var atoms: [Double] {
        switch self {
        case .deterministic(let t): [t.nanoseconds]
        case .exponential: []
        case .lognormal(_, let sd): sd == .zero ? [mean.nanoseconds] : []
        case .mixture(let components): components.flatMap(\.time.atoms)
        }
    }

    /// A lognormal's (μ, σ) of log-nanoseconds.
    var logParameters: (mu: Double, sigma: Double) {
        guard case .lognormal(let mean, let sd) = self else { return (0, 0) }
        let (m, s) = (mean.nanoseconds, sd.nanoseconds)
        let variance = log(1 + s * s / (m * m))
        return (log(m) - variance / 2, variance.squareRoot())
    }
}
