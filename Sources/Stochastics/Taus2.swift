/// GSL's `taus2` generator stepped in Swift, so a hot loop can inline it: L'Ecuyer's maximally
/// equidistributed combined Tausworthe generator ("Maximally equidistributed combined Tausworthe
/// generators", Math. Comp. 65, 1996), with GSL's seeding.
///
/// ```
/// s1 ← ((s1 & 4294967294) << 12) ^ (((s1 << 13) ^ s1) >> 19)      (all mod 2^32)
/// s2 ← ((s2 & 4294967288) <<  4) ^ (((s2 <<  2) ^ s2) >> 25)
/// s3 ← ((s3 & 4294967280) << 17) ^ (((s3 <<  3) ^ s3) >> 11)
/// x  = s1 ^ s2 ^ s3,   uniform = x / 2^32
/// ```
/// Seeding (`taus2_set`): s1 = LCG(seed), s2 = LCG(s1), s3 = LCG(s2) with LCG(n) = 69069 n mod 2^32,
/// each raised by 2, 8 or 16 when below it, then six steps discarded (taken as one jump, see
/// `WarmUp`). Properties, each tested: every output, and every state after a seed, is
/// bit-identical to `gsl_rng_get` and `gsl_rng_set` of `gsl_rng_taus2`; the layout is GSL's
/// `taus_state_t` (three `unsigned long`), so GSL's distributions can draw from the same memory
/// (``ClientStreams`` does).
/// GSL remains the generator of record: this type is its algorithm, checked against it.
@frozen
public struct Taus2: Hashable, Sendable {
    @usableFromInline var s1: UInt
    @usableFromInline var s2: UInt
    @usableFromInline var s3: UInt

    /// The state `gsl_rng_set(taus2, seed)` gives (on 64-bit Linux, where `unsigned long` has 64 bits).
    @inlinable
    public init(seed: UInt64) {
        self.init(seed: seed, warmUp: WarmUp.sixSteps)
    }

    /// `init(seed:)` with the warm-up's tables passed in, so a loop that seeds a stream per client
    /// reads them once, not once per seed.
    @inlinable @inline(__always)
    package init(seed: UInt64, warmUp: WarmUp) {
        @inline(__always) func lcg(_ n: UInt) -> UInt { (69069 &* n) & 0xFFFF_FFFF }
        let s = seed == 0 ? 1 : UInt(seed)
        s1 = lcg(s)
        if s1 < 2 { s1 += 2 }
        s2 = lcg(s1)
        if s2 < 8 { s2 += 8 }
        s3 = lcg(s2)
        if s3 < 16 { s3 += 16 }
        // The six discarded steps, as one jump (see `WarmUp`).
        (s1, s2, s3) = (warmUp.jump(s1, component: 0), warmUp.jump(s2, component: 1), warmUp.jump(s3, component: 2))
    }

    /// The state (s1, s2, s3) itself, each below 2^32.
    @usableFromInline
    package init(s1: UInt, s2: UInt, s3: UInt) {
        (self.s1, self.s2, self.s3) = (s1, s2, s3)
    }

    /// The next 32-bit output, as `gsl_rng_get`.
    @inlinable @inline(__always)
    public mutating func next() -> UInt32 {
        s1 = (((s1 & 4_294_967_294) << 12) & 0xFFFF_FFFF) ^ ((((s1 << 13) & 0xFFFF_FFFF) ^ s1) >> 19)
        s2 = (((s2 & 4_294_967_288) << 4) & 0xFFFF_FFFF) ^ ((((s2 << 2) & 0xFFFF_FFFF) ^ s2) >> 25)
        s3 = (((s3 & 4_294_967_280) << 17) & 0xFFFF_FFFF) ^ ((((s3 << 3) & 0xFFFF_FFFF) ^ s3) >> 11)
        return UInt32(truncatingIfNeeded: s1 ^ s2 ^ s3)
    }

    /// A uniform draw in [0, 1): the next output / 2^32, as `gsl_rng_uniform`.
    @inlinable @inline(__always)
    public mutating func uniform() -> Double { Double(next()) * 0x1p-32 }
}
