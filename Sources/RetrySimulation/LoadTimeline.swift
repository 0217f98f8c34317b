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
    public let bucketWidth: Int64
    public let limit: Int
    public private(set) var attempts: [Int] = []
    public private(set) var retries: [Int] = []
    public private(set) var successes: [Int] = []
    public private(set) var failures: [Int] = []
    public private(set) var rejected: [Int] = []
    public private(set) var timeouts: [Int] = []
    /// The longest the capacity server's queue was at an arrival or a departure in the bucket.
    public private(set) var peakQueue: [Int] = []
    /// True when an event fell beyond `limit` buckets and was not counted.
    public private(set) var overflowed = false

    public init(bucketWidth: Int64, limit: Int = Scenario.maximumBuckets) {
        precondition(bucketWidth > 0, "the bucket width must be positive")
        self.bucketWidth = bucketWidth
        self.limit = limit
    }

    /// The number of buckets from 0 through the last one that received an event.
    public var bucketCount: Int { attempts.count }

    /// The bucket of `time`, grown into existence; `nil` past the limit.
    /// - Complexity: amortised O(1), plus the buckets skipped since the last event.
    private mutating func bucket(_ time: VirtualTime) -> Int? {
        let index = Int(time.nanoseconds / bucketWidth)
        guard index < limit else {
            overflowed = true
            return nil
        }
        if index >= attempts.count {
            let grow = index + 1 - attempts.count
            for keyPath in [\Self.attempts, \.retries, \.successes, \.failures, \.rejected, \.timeouts, \.peakQueue] as [WritableKeyPath<Self, [Int]>] {
                self[keyPath: keyPath].append(contentsOf: repeatElement(0, count: grow))
            }
        }
        return index
    }

    /// Counts one attempt arriving at the server at `time`.
    public mutating func recordAttempt(at time: VirtualTime, isRetry: Bool) {
        guard let index = bucket(time) else { return }
        attempts[index] += 1
        if isRetry { retries[index] += 1 }
    }

    /// Counts the server's answer to an attempt, at the time it was given.
    public mutating func recordAnswer(at time: VirtualTime, _ outcome: AttemptOutcome) {
        guard let index = bucket(time) else { return }
        if outcome == .success { successes[index] += 1 } else { failures[index] += 1 }
    }

    /// Counts an attempt rejected at once by a full queue (also an answer: a failure).
    public mutating func recordRejection(at time: VirtualTime) {
        guard let index = bucket(time) else { return }
        rejected[index] += 1
    }

    /// Counts an attempt its client stopped waiting for.
    public mutating func recordTimeout(at time: VirtualTime) {
        guard let index = bucket(time) else { return }
        timeouts[index] += 1
    }

    /// Notes the queue's length after an arrival or a departure at `time`.
    public mutating func recordQueueLength(at time: VirtualTime, _ length: Int) {
        guard let index = bucket(time) else { return }
        peakQueue[index] = max(peakQueue[index], length)
    }

    /// The start of bucket `index`.
    public func bucketStart(_ index: Int) -> VirtualTime { VirtualTime(nanoseconds: Int64(index) * bucketWidth) }

    /// The largest number of attempts in one bucket, and the start of the first bucket that has it.
    public var peakLoad: (attempts: Int, start: VirtualTime) { peak(of: attempts) }

    /// The largest number of retries in one bucket, and the start of the first bucket that has it.
    /// (The first attempts of a burst all fill bucket 0; this peak shows the retry herd.)
    public var peakRetryLoad: (attempts: Int, start: VirtualTime) { peak(of: retries) }

    private func peak(of counts: [Int]) -> (attempts: Int, start: VirtualTime) {
        var best = 0
        var bestIndex = 0
        for (index, count) in counts.enumerated() where count > best {
            best = count
            bestIndex = index
        }
        return (best, bucketStart(bestIndex))
    }

    /// How long after `end` (the end of the trigger) the backlog takes to drain, in nanoseconds:
    /// from `end` to the end of the last bucket whose attempts exceed `threshold`, or 0 when no
    /// bucket from `end` on does. After that instant the load stays at or below the threshold.
    /// (A herd that comes back after a quiet gap counts: the gap is not the end of the backlog.)
    public func drainTime(after end: VirtualTime, threshold: Double) -> Int64 {
        let first = Int(end.nanoseconds / bucketWidth)
        guard let last = attempts.indices.last(where: { $0 >= first && Double(attempts[$0]) > threshold }) else { return 0 }
        return max(0, Int64(last + 1) * bucketWidth - end.nanoseconds)
    }

    /// When goodput came back after a trigger, in nanoseconds after `end`: the start of the first
    /// `window`-long span, starting at or after `end`, whose successes per second reach `fraction` of
    /// those of [0, `start`) (the level before the trigger). `nil` when no span within `horizon` after
    /// `end` does, or when nothing succeeded before the trigger.
    public func recoveryTime(triggerStart start: VirtualTime, triggerEnd end: VirtualTime, fraction: Double = 0.9,
                             window: Int64 = 1_000_000_000, horizon: Int64 = 10_000_000_000) -> Int64? {
        let before = Int(start.nanoseconds / bucketWidth)
        guard before > 0 else { return nil }
        let baseline = Double(successes.prefix(before).reduce(0, +)) / (Double(before) * Double(bucketWidth))
        guard baseline > 0 else { return nil }
        let span = max(1, Int(window / bucketWidth))
        var index = Int((end.nanoseconds + bucketWidth - 1) / bucketWidth)
        let last = Int((end.nanoseconds + horizon) / bucketWidth)
        while index <= last && index + span <= successes.count {
            let rate = Double(successes[index..<(index + span)].reduce(0, +)) / (Double(span) * Double(bucketWidth))
            if rate >= fraction * baseline { return Int64(index) * bucketWidth - end.nanoseconds }
            index += 1
        }
        return nil
    }
}
