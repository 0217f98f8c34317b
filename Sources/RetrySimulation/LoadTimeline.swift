import BackoffPolicies
import EventSimulation

/// Attempts arriving at the server per time bucket (all, and retries only), the server's answers,
/// and the attempts rejected or timed out.
///
/// Bucket i covers [i w, (i + 1) w) for width w in nanoseconds, so an attempt at exactly 0.3 s falls
/// in the bucket that starts at 0.3 s. Memory grows with the number of buckets reached, not with the
/// number of attempts, and is bounded by `limit` buckets: later events are not counted and
/// ``overflowed`` says so.
public struct LoadTimeline: Hashable, Sendable {
    /// The bucket width w, in nanoseconds.
    public let bucketWidth: Nanoseconds
    public let limit: Int
    /// Bucket i's counts, for every bucket from 0 through the last that received an event.
    public let buckets: [Bucket]
    /// True when an event fell beyond `limit` buckets and was not counted.
    public let overflowed: Bool
    /// The clients' concurrency limit (`simulate --limit`) after each bucket's last answer, by
    /// bucket (-1: no answer); empty without one. Apart from the buckets, which it would widen.
    private let concurrencyLimits: [Int32]

    /// What one bucket counted.
    public struct Bucket: Hashable, Sendable {
        public var attempts = 0
        public var retries = 0
        public var successes = 0
        public var failures = 0
        public var rejected = 0
        public var timeouts = 0
        /// The longest the capacity server's queue was at an arrival or a departure in the bucket.
        public var peakQueue = 0
        /// The client-side rate limiters' mean fill rate after the bucket's last answer (-1: no
        /// limiter, or no answer in the bucket).
        var lastFillRate = -1.0

        /// The client-side rate limiters' mean fill rate, per second, after the last answer in the
        /// bucket; `nil` without a limiter, or when no answer came in the bucket.
        public var fillRate: Double? { lastFillRate >= 0 ? lastFillRate : nil }
    }

    /// The timeline a ``LoadRecorder`` counted.
    init(bucketWidth: Nanoseconds, limit: Int, buckets: [Bucket], overflowed: Bool, concurrencyLimits: [Int32] = []) {
        self.bucketWidth = bucketWidth
        self.limit = limit
        self.buckets = buckets
        self.overflowed = overflowed
        self.concurrencyLimits = concurrencyLimits
    }

    /// The clients' concurrency limit after the last answer in bucket `index`; `nil` without one,
    /// or when no answer came in the bucket.
    public func concurrencyLimit(inBucket index: Int) -> Int? {
        index < concurrencyLimits.count && concurrencyLimits[index] >= 0 ? Int(concurrencyLimits[index]) : nil
    }

    /// Whether the timeline follows a concurrency limit.
    var hasConcurrencyLimits: Bool { !concurrencyLimits.isEmpty }

    /// The number of buckets from 0 through the last one that received an event.
    public var bucketCount: Int { buckets.count }

    // One count per bucket, as arrays (each built on demand from ``buckets``).
    public var attempts: [Int] { buckets.map(\.attempts) }
    public var retries: [Int] { buckets.map(\.retries) }
    public var successes: [Int] { buckets.map(\.successes) }
    public var failures: [Int] { buckets.map(\.failures) }
    public var rejected: [Int] { buckets.map(\.rejected) }
    public var timeouts: [Int] { buckets.map(\.timeouts) }
    public var peakQueue: [Int] { buckets.map(\.peakQueue) }

    /// The start of bucket `index`.
    public func bucketStart(_ index: Int) -> VirtualTime { VirtualTime(nanoseconds: Int64(index) * bucketWidth) }

    /// The largest number of attempts in one bucket, and the start of the first bucket that has it.
    public var peakLoad: (attempts: Int, start: VirtualTime) { peak { $0.attempts } }

    /// The largest number of retries in one bucket, and the start of the first bucket that has it.
    /// (The first attempts of a burst all fill bucket 0; this peak shows the retry herd.)
    public var peakRetryLoad: (attempts: Int, start: VirtualTime) { peak { $0.retries } }

    /// A closure rather than a key path: reading through a key path calls into the runtime for
    /// every bucket.
    private func peak(of count: (Bucket) -> Int) -> (attempts: Int, start: VirtualTime) {
        var best = 0
        var bestIndex = 0
        for (index, bucket) in buckets.enumerated() where count(bucket) > best {
            best = count(bucket)
            bestIndex = index
        }
        return (best, bucketStart(bestIndex))
    }

    /// How long after `end` (the end of the trigger) the backlog takes to drain, in nanoseconds:
    /// from `end` to the end of the last bucket whose attempts exceed `threshold`, or 0 when no
    /// bucket from `end` on does. After that instant the load stays at or below the threshold.
    /// (A herd that comes back after a quiet gap counts: the gap is not the end of the backlog.)
    public func drainTime(after end: VirtualTime, threshold: Double) -> Nanoseconds {
        let first = Int(end.nanoseconds / bucketWidth)
        guard let last = buckets.indices.last(where: { $0 >= first && Double(buckets[$0].attempts) > threshold }) else {
            return 0
        }
        return max(0, Int64(last + 1) * bucketWidth - end.nanoseconds)
    }

    /// When goodput came back after a trigger, in nanoseconds after `end`, by ``GoodputRecovery``'s
    /// rule over this timeline's successes.
    public func recoveryTime(triggerStart start: VirtualTime, triggerEnd end: VirtualTime) -> Int64? {
        GoodputRecovery.time(
            successes: successes.map(Double.init), bucketWidth: bucketWidth, triggerStart: start, triggerEnd: end)
    }
}
