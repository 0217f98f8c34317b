#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Quantiles of non-negative values in memory that does not grow with their number: a histogram of
/// logarithmically spaced buckets (the mapping of DDSketch, Masson, Rim and Lee, 2019), with a
/// bounded relative error.
///
/// With γ = (1 + α)/(1 − α), a positive value x falls in bucket i = ⌈log_γ x⌉, which holds
/// (γ^(i−1), γ^i]; the bucket stands for 2γ^i/(γ + 1), within a factor 1 ± α of every value in it.
/// Zeros have a bucket of their own. A quantile is the type-7 interpolation between the buckets of
/// its two order statistics, so it lies within α, relatively, of the exact sample quantile
/// (tested against it). At α = 0.001 values from 1 ns to 30 years (in seconds) need about 21,000
/// buckets, 170 KiB; only the buckets from the lowest value's to the highest's are kept.
public struct QuantileSketch: Sendable, Equatable {
    /// The relative accuracy α.
    public let accuracy: Double
    private let logGamma: Double
    private let inverseLogGamma: Double
    private let gamma: Double
    /// Counts of the buckets `lowest`, `lowest` + 1, ...
    private var counts: [Int] = []
    private var lowest = 0
    private var zeros = 0
    /// The values added.
    public private(set) var count = 0

    /// An empty sketch with relative accuracy `accuracy`, from 10^-6 to just below 1.
    ///
    /// Below 10^-6 the buckets would be too many to keep for any useful range of values (and
    /// below about 10^-16 γ rounds to 1, so no bucket index could be computed at all).
    public init(accuracy: Double = 0.001) {
        precondition(accuracy >= 1e-6 && accuracy < 1, "the relative accuracy lies in [10^-6, 1)")
        self.accuracy = accuracy
        gamma = (1 + accuracy) / (1 - accuracy)
        logGamma = log(gamma)
        inverseLogGamma = 1 / logGamma
    }

    /// Adds a value: finite, and not negative.
    /// - Complexity: O(1) amortised: the bucket's index is found without `log` for all but about
    ///   two values in 10^6 (see `bucketIndex(_:)`).
    @inline(__always)
    public mutating func add(_ value: Double) {
        precondition(value >= 0 && value.isFinite, "a sketch takes finite values of at least 0")
        count += 1
        guard value > 0 else {
            zeros += 1
            return
        }
        let index = bucketIndex(value)
        let offset = index &- lowest
        if UInt(bitPattern: offset) < UInt(counts.count) {
            counts[offset] += 1
        } else {
            addOutsideTheBuckets(index)
        }
    }

    /// Adds a value whose bucket lies outside the buckets kept so far, growing them to it.
    @inline(never)
    private mutating func addOutsideTheBuckets(_ index: Int) {
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

    /// ⌈log(x) / log γ⌉ for a positive finite x, as `log` gives it, without calling `log` when
    /// the answer is certain.
    ///
    /// With x = 2^e m, m in [√½, √2), and s = (m - 1)/(m + 1), |s| < 0.172, log x = e log 2 +
    /// 2 atanh s, whose series 2s(1 + s²/3 + ... + s¹⁰/11) is off by less than 2 × 10^-11 (the
    /// next term); the sums' rounding adds less than 10^-15 |log x|. So the estimate t of
    /// log(x)/log γ is within 10^-8 of the exact quotient (log γ ≈ 0.002 at α = 0.001), and when t
    /// lies more than 10^-6 from an integer its ceiling is the one `log` gives; otherwise (about 2
    /// values in 10^6), for a subnormal x, or for α below 10^-4 (where the estimate's error, 2 ×
    /// 10^-11 / log γ, nears 10^-6), `log` decides.
    @inline(__always)
    func bucketIndex(_ value: Double) -> Int {
        let bits = value.bitPattern
        var exponent = Int(bits >> 52) - 1023
        var m = Double(bitPattern: (bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000)
        if m > 2.0.squareRoot() {
            m *= 0.5
            exponent += 1
        }
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        let series = 1 + s2 * (1 / 3 + s2 * (1 / 5 + s2 * (1 / 7 + s2 * (1 / 9 + s2 * (1 / 11)))))
        let estimate = (Double(exponent) * 0.693_147_180_559_945_3 + 2 * s * series) * inverseLogGamma
        // ⌈t⌉ without a call to ceil: truncation rounds a negative t up already.
        let truncated = Int(estimate)
        let ceiling = truncated + (estimate > Double(truncated) ? 1 : 0)
        let gap = Double(ceiling) - estimate
        guard gap > 1e-6 && gap < 1 - 1e-6 && exponent > -1022 && accuracy >= 1e-4 else {
            return Int((log(value) / logGamma).rounded(.up))
        }
        return ceiling
    }

    /// Adds every value `other` holds: the sketch of both sets of values, whatever order they came in.
    public mutating func merge(_ other: QuantileSketch) {
        precondition(other.accuracy == accuracy, "sketches merge at one accuracy")
        count += other.count
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
            if rank < seen { return 2 * pow(gamma, Double(lowest + offset)) / (gamma + 1) }
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
