internal import CGSL

/// One independent random stream per client, for simulations whose clients draw their own numbers.
///
/// Each stream is a GSL `taus2` generator (L'Ecuyer's maximally equidistributed combined Tausworthe
/// generator, 24 bytes of state) seeded with ``SeedDerivation/streamSeed(root:stream:)`` of the
/// client's index, all states in one contiguous allocation: a million streams take 24 MB, where a
/// million MT19937 states would take 2.5 GB. Because a client's draws come from its own stream,
/// they do not depend on the order in which clients are simulated: an event-ordered run and a
/// client-by-client run give the same numbers. Backed by `gsl_rng_taus2`'s `set` and `get_double`.
public final class ClientStreams {
    private let type: UnsafePointer<gsl_rng_type>
    private let states: UnsafeMutableRawPointer
    private let stateSize: Int
    public let count: Int

    /// `count` streams, stream i seeded with `streamSeed(root, i)`.
    public init(count: Int, root: UInt64) {
        GSL.prepare()
        type = cgsl_rng_taus2()
        stateSize = max(1, type.pointee.size)
        self.count = count
        states = UnsafeMutableRawPointer.allocate(byteCount: max(1, count) * stateSize, alignment: 16)
        for client in 0..<count { reseed(client, root: root, stream: UInt64(client)) }
    }

    /// Restarts slot `slot` as stream `stream` of `root`: a client-by-client run keeps one slot and
    /// reseeds it for each client, drawing exactly what that client's own stream would give.
    @inline(__always)
    public func reseed(_ slot: Int, root: UInt64, stream: UInt64) {
        type.pointee.set(state(slot), UInt(SeedDerivation.streamSeed(root: root, stream: stream)))
    }

    deinit {
        states.deallocate()
    }

    @inline(__always)
    private func state(_ client: Int) -> UnsafeMutableRawPointer { states + client * stateSize }

    /// A uniform draw in [0, 1) from the client's stream.
    @inline(__always)
    public func uniform(_ client: Int) -> Double { type.pointee.get_double(state(client)) }

    /// An exponential draw with the given mean from the client's stream. Backed by `gsl_ran_exponential`.
    public func exponential(_ client: Int, mean: Double) -> Double {
        var generator = gsl_rng(type: type, state: state(client))
        return gsl_ran_exponential(&generator, mean)
    }

    /// A normal draw N(mean, sd²) from the client's stream. Backed by `gsl_ran_gaussian_ziggurat`.
    public func normal(_ client: Int, mean: Double, standardDeviation: Double) -> Double {
        var generator = gsl_rng(type: type, state: state(client))
        return mean + gsl_ran_gaussian_ziggurat(&generator, standardDeviation)
    }

    /// A lognormal draw exp(N(mu, sigma²)) from the client's stream. Backed by `gsl_ran_lognormal`.
    public func lognormal(_ client: Int, mu: Double, sigma: Double) -> Double {
        var generator = gsl_rng(type: type, state: state(client))
        return gsl_ran_lognormal(&generator, mu, sigma)
    }
}
