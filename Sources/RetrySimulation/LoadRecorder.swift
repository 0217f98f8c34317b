import BackoffPolicies
import EventSimulation

/// Counts a run's events per time bucket while it runs, then hands them over as a ``LoadTimeline``.
///
/// Bucket i covers [i w, (i + 1) w) for width w in nanoseconds. The counts live in memory the
/// recorder owns (grown by doubling, up to `limit` buckets; later events only set ``overflowed``),
/// so recording an event is a division, a bounds test and the increments: no copy-on-write check,
/// and no overflow test (a count of 64 bits does not wrap before 2^63 events).
/// The run that creates a recorder calls ``deallocate()`` once it has taken the ``timeline``.
struct LoadRecorder {
    let bucketWidth: Nanoseconds
    let limit: Int
    private var buckets: UnsafeMutablePointer<LoadTimeline.Bucket>
    private var capacity: Int
    /// Buckets from 0 through the last one that received an event.
    private(set) var count = 0
    /// True when an event fell beyond `limit` buckets and was not counted.
    private(set) var overflowed = false
    /// The clients' concurrency limit after each bucket's last answer (-1: none), grown only by a
    /// run with one, so that a bucket stays as the hot paths write it.
    private var concurrencyLimits: [Int32] = []

    init(bucketWidth: Nanoseconds, limit: Int = Scenario.maximumBuckets) {
        precondition(bucketWidth > 0, "the bucket width must be positive")
        self.bucketWidth = bucketWidth
        self.limit = limit
        capacity = 64
        buckets = .allocate(capacity: capacity)
    }

    func deallocate() { buckets.deallocate() }

    /// What was recorded, as a timeline.
    var timeline: LoadTimeline {
        LoadTimeline(
            bucketWidth: bucketWidth, limit: limit, buckets: Array(UnsafeBufferPointer(start: buckets, count: count)),
            overflowed: overflowed, concurrencyLimits: concurrencyLimits)
    }

    /// Adds the counts of `other`, a timeline of other clients of the same run (with no limiter's
    /// fill rates); `overflowed` when an event of theirs fell beyond the limit.
    mutating func add(_ other: LoadTimeline, overflowed: Bool) {
        precondition(other.bucketWidth == bucketWidth, "timelines add up at one bucket width")
        self.overflowed = self.overflowed || overflowed
        precondition(!other.hasConcurrencyLimits, "timelines with a concurrency limit do not add up")
        guard !other.buckets.isEmpty, let last = bucket(index: other.buckets.count - 1) else { return }
        for (index, counted) in other.buckets.enumerated() {
            precondition(counted.fillRate == nil, "timelines with a limiter's fill rates do not add up")
            let bucket = last - (other.buckets.count - 1 - index)
            bucket.pointee.attempts += counted.attempts
            bucket.pointee.retries += counted.retries
            bucket.pointee.successes += counted.successes
            bucket.pointee.failures += counted.failures
            bucket.pointee.rejected += counted.rejected
            bucket.pointee.timeouts += counted.timeouts
            bucket.pointee.peakQueue = Swift.max(bucket.pointee.peakQueue, counted.peakQueue)
        }
    }

    /// The bucket of `time`, grown into existence; `nil` (and ``overflowed`` set) past the limit.
    /// - Complexity: amortised O(1), plus the buckets skipped since the last event.
    @inline(__always)
    private mutating func bucket(_ time: VirtualTime) -> UnsafeMutablePointer<LoadTimeline.Bucket>? {
        bucket(index: Int(time.nanoseconds / bucketWidth))
    }

    @inline(__always)
    private mutating func bucket(index: Int) -> UnsafeMutablePointer<LoadTimeline.Bucket>? {
        if index < count { return buckets + index }
        return grow(to: index)
    }

    private mutating func grow(to index: Int) -> UnsafeMutablePointer<LoadTimeline.Bucket>? {
        guard index < limit else {
            overflowed = true
            return nil
        }
        if index >= capacity {
            let larger = Swift.min(limit, Swift.max(2 * capacity, index + 1))
            let moved = UnsafeMutablePointer<LoadTimeline.Bucket>.allocate(capacity: larger)
            moved.moveInitialize(from: buckets, count: count)
            buckets.deallocate()
            buckets = moved
            capacity = larger
        }
        (buckets + count).initialize(repeating: LoadTimeline.Bucket(), count: index + 1 - count)
        count = index + 1
        return buckets + index
    }

    /// Counts one attempt arriving at the server at `time`.
    @inline(__always)
    mutating func recordAttempt(at time: VirtualTime, isRetry: Bool) {
        guard let bucket = bucket(time) else { return }
        bucket.pointee.attempts &+= 1
        if isRetry { bucket.pointee.retries &+= 1 }
    }

    /// Counts an attempt arriving at `time` and the server's answer to it, given at once.
    @inline(__always)
    mutating func recordAttempt(at time: VirtualTime, isRetry: Bool, answeredAtOnce outcome: AttemptOutcome) {
        guard let bucket = bucket(time) else { return }
        bucket.pointee.attempts &+= 1
        if isRetry { bucket.pointee.retries &+= 1 }
        if outcome == .success { bucket.pointee.successes &+= 1 } else { bucket.pointee.failures &+= 1 }
    }

    /// Counts the server's answer to an attempt, at the time it was given.
    mutating func recordAnswer(at time: VirtualTime, _ outcome: AttemptOutcome) {
        guard let bucket = bucket(time) else { return }
        if outcome == .success { bucket.pointee.successes &+= 1 } else { bucket.pointee.failures &+= 1 }
    }

    /// Counts an attempt rejected at once by a full queue (also an answer: a failure).
    mutating func recordRejection(at time: VirtualTime) {
        guard let bucket = bucket(time) else { return }
        bucket.pointee.rejected &+= 1
    }

    /// Counts an attempt its client stopped waiting for.
    mutating func recordTimeout(at time: VirtualTime) {
        guard let bucket = bucket(time) else { return }
        bucket.pointee.timeouts &+= 1
    }

    /// Notes the rate limiters' mean fill rate after an answer at `time`.
    mutating func recordFillRate(at time: VirtualTime, _ rate: Double) {
        guard let bucket = bucket(time) else { return }
        bucket.pointee.lastFillRate = rate
    }

    /// Notes the clients' concurrency limit after an answer at `time`.
    mutating func recordConcurrencyLimit(at time: VirtualTime, _ limit: Int) {
        guard bucket(time) != nil else { return }
        let index = Int(time.nanoseconds / bucketWidth)
        if concurrencyLimits.count <= index {
            concurrencyLimits.append(contentsOf: repeatElement(-1, count: index + 1 - concurrencyLimits.count))
        }
        concurrencyLimits[index] = Int32(clamping: limit)
    }

    /// Notes the queue's length after an arrival or a departure at `time`.
    mutating func recordQueueLength(at time: VirtualTime, _ length: Int) {
        guard let bucket = bucket(time) else { return }
        bucket.pointee.peakQueue = Swift.max(bucket.pointee.peakQueue, length)
    }
}
