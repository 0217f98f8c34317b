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
    private let gamma: Double
    /// Counts of the buckets `lowest`, `lowest` + 1, ...
    private var counts: [Int] = []
    private var lowest = 0
    private var zeros = 0
    /// The values added.
    public private(set) var count = 0

    /// An empty sketch with relative accuracy `accuracy` (0 < α < 1).
    public init(accuracy: Double = 0.001) {
        precondition(accuracy > 0 && accuracy < 1, "the relative accuracy lies in (0, 1)")
        self.accuracy = accuracy
        gamma = (1 + accuracy) / (1 - accuracy)
        logGamma = log(gamma)
    }

    /// Adds a value: finite, and not negative.
    public mutating func add(_ value: Double) {
        precondition(value >= 0 && value.isFinite, "a sketch takes finite values of at least 0")
        count += 1
        guard value > 0 else {
            zeros += 1
            return
        }
        let index = Int((log(value) / logGamma).rounded(.up))
        if counts.isEmpty {
            lowest = index
            counts = [0]
        } else if index < lowest {
            counts.insert(contentsOf: repeatElement(0, count: lowest - index), at: 0)
            lowest = index
        } else if index - lowest >= counts.count {
            counts.append(contentsOf: repeatElement(0, count: index - lowest + 1 - counts.count))
        }
        counts[index - lowest] += 1
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
