/// GSL's `mt19937` generator stepped in Swift, so a hot loop can inline it: the Mersenne Twister of
/// Matsumoto & Nishimura ("Mersenne Twister: a 623-dimensionally equidistributed uniform
/// pseudorandom number generator", ACM TOMACS 8, 1998), with GSL's seeding.
///
/// ```
/// y      = (mt[k] & 0x80000000) | (mt[k+1] & 0x7fffffff)
/// mt[k]  = mt[k+397] ^ (y >> 1) ^ (y odd ? 0x9908b0df : 0)          (624 words regenerated at once)
/// x      = temper(mt[i]),  uniform = x / 2^32                      (624 tempered at once)
/// ```
/// Seeding (`mt_set`): a seed of 0 becomes 4357; mt[0] = seed mod 2^32, mt[i] = 1812433253
/// (mt[i-1] ^ (mt[i-1] >> 30)) + i mod 2^32. Properties, each tested: every output is bit-identical
/// to `gsl_rng_get` of `gsl_rng_mt19937` for the same seed. GSL remains the generator of record:
/// this type is its algorithm, checked against it.
public struct MersenneTwister: Sendable {
    @usableFromInline static let n = 624
    @usableFromInline static let m = 397
    @usableFromInline var words: [624 of UInt32]
    /// The tempered words, the outputs: tempered all at once after each regeneration (a loop the
    /// compiler vectorises) rather than one by one as they are drawn.
    @usableFromInline var outputs: [624 of UInt32]
    @usableFromInline var index: Int

    /// The state `gsl_rng_set(mt19937, seed)` gives.
    public init(seed: UInt64) {
        let s = seed == 0 ? 4357 : seed
        words = [624 of UInt32](repeating: 0)
        outputs = [624 of UInt32](repeating: 0)
        words[0] = UInt32(truncatingIfNeeded: s)
        for i in 1..<Self.n {
            let previous = words[i - 1]
            words[i] = 1_812_433_253 &* (previous ^ (previous >> 30)) &+ UInt32(i)
        }
        index = Self.n
    }

    /// The next 32-bit output, as `gsl_rng_get`.
    @inlinable @inline(__always)
    public mutating func next() -> UInt32 {
        if index >= Self.n { regenerate() }
        let output = outputs[index]
        index += 1
        return output
    }

    /// A uniform draw in [0, 1): the next output / 2^32, as `gsl_rng_uniform`.
    @inlinable @inline(__always)
    public mutating func uniform() -> Double { Double(next()) * 0x1p-32 }

    /// The next 624 words, and their outputs.
    @usableFromInline
    mutating func regenerate() {
        @inline(__always) func twist(_ upper: UInt32, _ lower: UInt32, _ far: UInt32) -> UInt32 {
            let y = (upper & 0x8000_0000) | (lower & 0x7FFF_FFFF)
            return far ^ (y >> 1) ^ ((y & 1) == 0 ? 0 : 0x9908_B0DF)
        }
        let (n, m) = (Self.n, Self.m)
        for k in 0..<(n - m) { words[k] = twist(words[k], words[k + 1], words[k + m]) }
        for k in (n - m)..<(n - 1) { words[k] = twist(words[k], words[k + 1], words[k + m - n]) }
        words[n - 1] = twist(words[n - 1], words[0], words[m - 1])
        for k in 0..<n {
            var y = words[k]
            y ^= y >> 11
            y ^= (y << 7) & 0x9D2C_5680
            y ^= (y << 15) & 0xEFC6_0000
            y ^= y >> 18
            outputs[k] = y
        }
        index = 0
    }
}
