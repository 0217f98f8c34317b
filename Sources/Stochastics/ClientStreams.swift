internal import CGSL

/// One independent random stream per client, for simulations whose clients draw their own numbers.
///
/// Each stream is a GSL `taus2` generator (L'Ecuyer's maximally equidistributed combined Tausworthe
/// generator, 24 bytes of state) seeded with ``SeedDerivation/streamSeed(root:stream:)`` of the
/// client's index, all states in one contiguous allocation: a million streams take 24 MB, where a
/// million MT19937 states would take 2.5 GB. Because a client's draws come from its own stream,
/// they do not depend on the order in which clients are simulated: an event-ordered run and a
/// client-by-client run give the same numbers.
///
/// Uniforms are stepped in Swift (``Taus2``, bit-identical to `gsl_rng_taus2`, inlined into the
/// caller); the states have GSL's layout, so the distributions are GSL's own, drawn from the same
/// memory. A client-by-client run need not allocate streams at all: `Taus2(seed: streamSeed(root, i))`
/// draws exactly what slot i does.
public final class ClientStreams {
    private let type: UnsafePointer<gsl_rng_type>
    /// Replaced only by ``grow(to:)``, between draws: read without the runtime's exclusivity check,
    /// which would cost each draw a call.
    @exclusivity(unchecked) @usableFromInline private(set) var states: UnsafeMutablePointer<Taus2>
    /// The streams held (seeded or not).
    public private(set) var count: Int
    /// GSL's ziggurat, fetched at the first normal draw (a run that draws none never reads its
    /// tables), then read without the global's once-check.
    @usableFromInline let ziggurat: UnsafeMutablePointer<Ziggurat?>

    /// `count` streams, stream i seeded with `streamSeed(root, i)`.
    public init(count: Int, root: UInt64) {
        GSL.prepare()
        type = cgsl_rng_taus2()
        precondition(
            type.pointee.size == MemoryLayout<Taus2>.stride, "Taus2 must have the layout of GSL's taus_state_t")
        self.count = count
        states = .allocate(capacity: max(1, count))
        ziggurat = .allocate(capacity: 1)
        ziggurat.initialize(to: nil)
        for client in 0..<count { reseed(client, root: root, stream: UInt64(client)) }
    }

    /// Room for `count` streams, none seeded yet: each slot is seeded with ``reseed(_:root:stream:)``
    /// before its first draw (a run that numbers its streams as its clients arrive).
    public init(unseeded count: Int) {
        GSL.prepare()
        type = cgsl_rng_taus2()
        self.count = count
        // Taus2 is a trivial type: its slots need no initialization before ``reseed(_:root:stream:)``.
        states = .allocate(capacity: max(1, count))
        ziggurat = .allocate(capacity: 1)
        ziggurat.initialize(to: nil)
    }

    /// Room for at least `count` streams: the states move to an allocation of that size, the
    /// seeded ones unchanged, the new ones not seeded yet. Pointers from `state(of:)` taken before
    /// are invalid after it.
    public func grow(to count: Int) {
        guard count > self.count else { return }
        let grown = UnsafeMutablePointer<Taus2>.allocate(capacity: count)
        grown.moveInitialize(from: states, count: self.count)
        states.deallocate()
        states = grown
        self.count = count
    }

    /// Restarts slot `slot` as stream `stream` of `root`.
    @inlinable
    public func reseed(_ slot: Int, root: UInt64, stream: UInt64) {
        states[slot] = Taus2(seed: SeedDerivation.streamSeed(root: root, stream: stream))
    }

    deinit {
        states.deallocate()
        ziggurat.deinitialize(count: 1)
        ziggurat.deallocate()
    }

    @inline(__always)
    private func state(_ client: Int) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(states + client) }

    /// The state of the client's stream, for a caller in this package that steps it inline; valid
    /// while the streams live.
    @inlinable
    package func state(of client: Int) -> UnsafeMutablePointer<Taus2> { states + client }

    /// A uniform draw in [0, 1) from the client's stream, as `gsl_rng_uniform`.
    @inlinable @inline(__always)
    public func uniform(_ client: Int) -> Double { states[client].uniform() }

    /// An exponential draw with the given mean from the client's stream. Backed by `gsl_ran_exponential`.
    public func exponential(_ client: Int, mean: Double) -> Double {
        var generator = gsl_rng(type: type, state: state(client))
        return gsl_ran_exponential(&generator, mean)
    }

    /// A normal draw N(mean, sd²) from the client's stream: GSL's `gsl_ran_gaussian_ziggurat`,
    /// drawn in Swift (``Ziggurat``, bit-identical to it).
    @inlinable
    public func normal(_ client: Int, mean: Double, standardDeviation: Double) -> Double {
        if ziggurat.pointee == nil { ziggurat.pointee = Ziggurat.gsl }
        return mean + ziggurat.pointee.unsafelyUnwrapped.normal(sigma: standardDeviation, using: &states[client])
    }

    /// A lognormal draw exp(N(mu, sigma²)) from the client's stream. Backed by `gsl_ran_lognormal`.
    public func lognormal(_ client: Int, mu: Double, sigma: Double) -> Double {
        var generator = gsl_rng(type: type, state: state(client))
        return gsl_ran_lognormal(&generator, mu, sigma)
    }
}
