import BackoffPolicies
import Stochastics

/// GSL generators feed the policies' jitter draws (`gsl_rng_uniform`, in [0, 1)).
/// Both modules belong to this package, so the conformance cannot clash with another.
extension RandomGenerator: UniformSource {
    @inline(__always)
    public func nextUniform() -> Double { uniform() }
}

/// GSL's taus2, stepped inline (bit-identical to `gsl_rng_uniform` of `gsl_rng_taus2`).
extension Taus2: UniformSource {
    @inline(__always)
    public mutating func nextUniform() -> Double { uniform() }
}

/// GSL's mt19937, stepped inline (bit-identical to `gsl_rng_uniform` of `gsl_rng_mt19937`).
extension MersenneTwister: UniformSource {
    @inline(__always)
    public mutating func nextUniform() -> Double { uniform() }
}
