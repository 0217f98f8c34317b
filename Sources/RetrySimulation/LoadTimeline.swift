import EventSimulation

/// Attempts arriving at the server per time bucket: all attempts, retries only, and their answers.
///
/// Bucket i covers [i w, (i + 1) w) for width w in nanoseconds, so an attempt at exactly 0.3 s falls
/// in the bucket that starts at 0.3 s. Memory grows with the number of buckets reached, not with the
/// number of attempts.
public struct LoadTimeline: Hashable, Sendable {
    /// The bucket width w, in nanoseconds.
    public let bucketWidth: Int64
    public private(set) var attempts: [Int] = []
    public private(set) var retries: [Int] = []
    public private(set) var successes: [Int] = []
    public private(set) var failures: [Int] = []

    public init(bucketWidth: Int64) {
        precondition(bucketWidth > 0, "the bucket width must be positive")
        self.bucketWidth = bucketWidth
    }

    /// The number of buckets from 0 through the last one that received an attempt.
    public var bucketCount: Int { attempts.count }

    /// Counts one attempt arriving at `time` (not before 0).
    /// - Complexity: amortised O(1), plus the buckets skipped since the last attempt.
    public mutating func record(at time: VirtualTime, isRetry: Bool, outcome: AttemptOutcome) {
        let index = Int(time.nanoseconds / bucketWidth)
        if index >= attempts.count {
            let grow = index + 1 - attempts.count
            attempts.append(contentsOf: repeatElement(0, count: grow))
            retries.append(contentsOf: repeatElement(0, count: grow))
            successes.append(contentsOf: repeatElement(0, count: grow))
            failures.append(contentsOf: repeatElement(0, count: grow))
        }
        attempts[index] += 1
        if isRetry { retries[index] += 1 }
        if outcome == .success { successes[index] += 1 } else { failures[index] += 1 }
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
}
