internal import CGSL

/// A seeded GSL random number generator. Owns its `gsl_rng`, freed in `deinit`.
///
/// Each generator is one independent stream: give every run, client group or sweep point its own,
/// seeded with ``SeedDerivation/streamSeed(root:stream:)``. It is not thread-safe; use one per thread.
public final class RandomGenerator {
    private let _rng: OpaquePointer
    public let algorithm: GeneratorAlgorithm
    public let seed: UInt64

    /// A generator of `algorithm` seeded with `seed`. Backed by `gsl_rng_alloc` and `gsl_rng_set`.
    ///
    /// MT19937 uses the low 32 bits of the seed and replaces a seed of 0 by 4357, so derived seeds
    /// are never 0 (see ``SeedDerivation``).
    public init(algorithm: GeneratorAlgorithm = .standard, seed: UInt64) throws(StochasticsError) {
        GSL.prepare()
        guard let rng = gsl_rng_alloc(algorithm.gslType) else {
            throw .allocationFailed("a \(algorithm.rawValue) generator")
        }
        gsl_rng_set(rng, UInt(seed))
        _rng = OpaquePointer(rng)
        self.algorithm = algorithm
        self.seed = seed
    }

    deinit {
        gsl_rng_free(UnsafeMutablePointer(_rng))
    }

    private var rng: UnsafeMutablePointer<gsl_rng> { UnsafeMutablePointer(_rng) }

    /// A uniform draw in [0, 1). Backed by `gsl_rng_uniform`.
    @inline(__always)
    public func uniform() -> Double { gsl_rng_uniform(rng) }

    /// A uniform draw in (0, 1). Backed by `gsl_rng_uniform_pos`.
    public func uniformPositive() -> Double { gsl_rng_uniform_pos(rng) }

    /// A uniform draw in [a, b). Backed by `gsl_ran_flat`.
    public func flat(_ a: Double, _ b: Double) -> Double { gsl_ran_flat(rng, a, b) }

    /// An exponential draw with the given mean. Backed by `gsl_ran_exponential`.
    public func exponential(mean: Double) -> Double { gsl_ran_exponential(rng, mean) }

    /// A lognormal draw: exp(N(mu, sigma²)). Backed by `gsl_ran_lognormal`.
    public func lognormal(mu: Double, sigma: Double) -> Double { gsl_ran_lognormal(rng, mu, sigma) }

    /// A normal draw N(mean, sd²). Backed by `gsl_ran_gaussian_ziggurat`.
    public func normal(mean: Double = 0, standardDeviation sd: Double) -> Double {
        mean + gsl_ran_gaussian_ziggurat(rng, sd)
    }
}
