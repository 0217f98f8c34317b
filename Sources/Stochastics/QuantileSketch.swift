/// Quantiles of non-negative values in memory that does not grow with their number: a histogram of
/// log-linear buckets (each binade [2^e, 2^(e+1)) split into 2^k equal buckets, as HdrHistogram
/// splits it), with a bounded relative error.
///
/// A positive normal double's bit pattern is its biased exponent followed by 52 bits of mantissa,
/// and it grows with the value; its top 11 + k bits, `bits >> (52 − k)`, are the index of its bucket
/// [lo, hi), where hi − lo = 2^(e−k) and lo ≥ 2^e. The bucket stands for 2 lo hi / (lo + hi), whose
/// distance from any value in it is at most (hi − lo)/(hi + lo) ≤ 1/(2^(k+1) + 1) of that value; k
/// is the least that makes this at most the accuracy α (k = 9, 512 buckets a binade, at α = 0.001).
/// Subnormal values are indexed after scaling by 2^64 (exact), in buckets below the normal ones;
/// their bucket's value is as precise as a subnormal double can be. Zeros have a bucket of their
/// own. A quantile is the type-7 interpolation between the buckets of its two order statistics, so
/// it lies within α, relatively, of the exact sample quantile (tested against it). At α = 0.001
/// values from 1 to 2^63 (nanoseconds, say) need at most 63 × 512 = 32,256 buckets, 252 KiB; only
/// the buckets from the lowest value's to the highest's are kept.
public struct QuantileSketch: Sendable, Equatable {
    /// The relative accuracy α asked for.
    public let accuracy: Double
    /// The buckets a binade holds are 2^k with k = 52 − `shift`.
    @usableFromInline let shift: UInt64
    /// Counts of the buckets `lowest`, `lowest` + 1, ...
    @usableFromInline var counts: [Int] = []
    @usableFromInline var lowest = 0
    @usableFromInline var zeros = 0
    @usableFromInline var _count = 0

    /// The values added.
    public var count: Int { _count }

    /// An empty sketch with relative accuracy `accuracy`, from 10^-6 to just below 1.
    ///
    /// Below 10^-6 the buckets would be too many to keep for any useful range of values (2^19 a
    /// binade).
    public init(accuracy: Double = 0.001) {
        precondition(accuracy >= 1e-6 && accuracy < 1, "the relative accuracy lies in [10^-6, 1)")
        self.accuracy = accuracy
        var bits = 0
        while 1 / (Double(1 << (bits + 1)) + 1) > accuracy { bits += 1 }
        shift = UInt64(52 - bits)
    }

    /// Adds a value: finite, and not negative.
    /// - Complexity: O(1) amortised.
    @inlinable @inline(__always)
    public mutating func add(_ value: Double) {
        precondition(value >= 0 && value < .infinity, "a sketch takes finite values of at least 0")
        _count += 1
        guard value > 0 else {
            zeros += 1
            return
        }
        let offset = bucketIndex(value) &- lowest
        if UInt(bitPattern: offset) < UInt(counts.count) {
            counts[offset] += 1
        } else {
            addOutsideTheBuckets(lowest &+ offset)
        }
    }

    /// Adds a value whose bucket lies outside the buckets kept so far, growing them to it.
    @usableFromInline @inline(never)
    mutating func addOutsideTheBuckets(_ index: Int) {
        if counts.isEmpty {
            lowest = index
            counts = [0]
        } else if index < lowest {
            counts.insert(contentsOf: repeatElement(0, count: lowest - index), at: 0)
            lowest = index
        } else {
            counts.append(contentsOf: repeatElement(0, count: index - lowest + 1 - counts.count))
        }
        counts[index - lowest] += 1
    }

    /// The index of a positive finite value's bucket: its bit pattern's top 64 − `shift` bits (below
    /// 2^-1022, those of the value scaled by 2^64, less 64 binades' worth of buckets).
    @inlinable @inline(__always)
    func bucketIndex(_ value: Double) -> Int {
        let bits = value.bitPattern
        guard bits >= 1 << 52 else { return subnormalBucketIndex(value) }
        return Int(truncatingIfNeeded: bits >> shift)
    }

    @usableFromInline @inline(never)
    func subnormalBucketIndex(_ value: Double) -> Int {
        Int(truncatingIfNeeded: (value * 0x1p64).bitPattern >> shift) - (64 << (52 - shift))
    }

    /// The bucket `index`'s lower and upper bounds (the upper one excluded; ∞ above the greatest
    /// finite double) and the value that stands for it, 2 lo hi / (lo + hi).
    func bucket(_ index: Int) -> (lower: Double, upper: Double, value: Double) {
        let perBinade = 1 << (52 - shift)
        // Below the normal binades, work on values scaled by 2^64 and scale the answer back.
        let (scaled, factor) = index < perBinade ? (index + 64 * perBinade, 0x1p-64) : (index, 1.0)
        let lower = Double(bitPattern: UInt64(scaled) << shift)
        let width = Double(sign: .plus, exponent: lower.exponent - Int(52 - shift), significand: 1)
        let value = lower + width / (2 + width / lower)
        return (lower * factor, (lower + width) * factor, value * factor)
    }

    /// Adds every value `other` holds: the sketch of both sets of values, whatever order they came in.
    public mutating func merge(_ other: QuantileSketch) {
        precondition(other.accuracy == accuracy, "sketches merge at one accuracy")
        _count += other.count
        zeros += other.zeros
        guard !other.counts.isEmpty else { return }
        let otherHighest = other.lowest + other.counts.count - 1
        if counts.isEmpty {
            (counts, lowest) = (other.counts, other.lowest)
            return
        }
        if other.lowest < lowest {
            counts.insert(contentsOf: repeatElement(0, count: lowest - other.lowest), at: 0)
            lowest = other.lowest
        }
        if otherHighest - lowest >= counts.count {
            counts.append(contentsOf: repeatElement(0, count: otherHighest - lowest + 1 - counts.count))
        }
        for (offset, bucketCount) in other.counts.enumerated() { counts[other.lowest - lowest + offset] += bucketCount }
    }

    /// The value standing for the order statistic of 0-based rank `rank` (0 ≤ rank < count).
    private func value(atRank rank: Int) -> Double {
        if rank < zeros { return 0 }
        var seen = zeros
        for (offset, bucketCount) in counts.enumerated() {
            seen += bucketCount
            if rank < seen { return bucket(lowest + offset).value }
        }
        preconditionFailure("rank \(rank) beyond the sketch's \(count) values")
    }

    /// The type-7 quantile at probability `p` (the sample quantile R and numpy compute by default),
    /// within ``accuracy`` of the exact one, relatively; `nil` when the sketch is empty.
    public func quantile(_ p: Double) -> Double? {
        precondition((0...1).contains(p), "a probability lies in [0, 1]")
        guard count > 0 else { return nil }
        let h = Double(count - 1) * p
        let j = Int(h.rounded(.down))
        let low = value(atRank: j)
        guard j + 1 < count else { return low }
        let high = value(atRank: j + 1)
        return low + (h - Double(j)) * (high - low)
    }
}
