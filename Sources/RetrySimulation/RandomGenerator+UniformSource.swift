import BackoffPolicies
import Stochastics

/// GSL generators feed the policies' jitter draws (`gsl_rng_uniform`, in [0, 1)).
/// Both modules belong to this package, so the conformance cannot clash with another.
extension RandomGenerator: UniformSource {
    @inline(__always)
    public func nextUniform() -> Double { uniform() }
}
