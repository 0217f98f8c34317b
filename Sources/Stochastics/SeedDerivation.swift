/// Derives the seed of each independent random stream from one root seed.
///
/// ```
/// seed(root, stream) = splitMix64(root + (stream + 1) × 0x9E3779B97F4A7C15)   (mod 2^64)
/// ```
/// where splitMix64 is the finaliser of Steele, Lea & Flood's SplitMix64 (OOPSLA 2014). A result of 0
/// is replaced by 1, because MT19937 treats seed 0 as 4357. Nested streams (a sweep point, then a
/// jitter mode inside it) apply the rule once per level.
public enum SeedDerivation {
    /// The seed of stream `stream` under `root`.
    @inlinable
    public static func streamSeed(root: UInt64, stream: UInt64) -> UInt64 {
        let mixed = splitMix64(root &+ (stream &+ 1) &* 0x9E37_79B9_7F4A_7C15)
        return mixed == 0 ? 1 : mixed
    }

    /// The SplitMix64 finaliser: a bijection of 64-bit integers with good avalanche.
    @inlinable
    public static func splitMix64(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
