import BackoffPolicies

/// When Finagle's `BackupRequestFilter` sends its backup, for a run of `--hedge on:percentile=Q`:
/// one filter in front of the replicas, as one Finagle client instance whose callers are the
/// simulated clients.
///
/// As the filter and its `WindowedPercentileHistogram` have it:
/// - A copy's latency, in whole milliseconds of the clock (`nowMs() − start`), is recorded when it
///   succeeds or is interrupted by its call's winner (`SupersededRequestFailure`); other failures
///   are fast and would pull the delay down, so they are not. Values above 2,000 ms count as 2,000.
/// - Recorded latencies reach the histogram when its current interval is flushed, every 10 s; the
///   histogram is the last three flushed intervals (30 s).
/// - Every 3 s the delay becomes the histogram's Q-th percentile, at least 1 ms: the k-th smallest
///   latency, k = ⌈Q·n⌉ (HdrHistogram's `getValueAtPercentile`, exact in whole milliseconds below
///   2,048), and 0 while the histogram has never been flushed. Before the first refresh the delay
///   is infinite. A call reads the delay when it starts.
/// - A delay of 2,000 ms or more (the histogram's ceiling) sends no backup.
/// - A backup also needs a token of the filter's own `RetryBudget` (`maxExtraLoad` = 1 − Q per
///   request over a 10 s window, plus 10 a second); every call deposits one request.
///
/// Timers due at the same instant: the flush before the refresh, and both before a latency
/// recorded then. Finagle's timers run on wall-clock threads in no fixed phase; here both start
/// at t = 0.
struct BackupRequestDelay {
    static let refreshInterval: Int64 = 3_000_000_000
    static let bucketLength: Int64 = 10_000_000_000
    static let buckets = 3
    static let highestTrackableMilliseconds: Int32 = 2_000
    static let minimumMilliseconds: Int32 = 1
    static let millisecond: Int64 = 1_000_000

    let percentile: Double
    private var budget: RatioBudget?
    /// Latencies recorded since the last flush, and the flushed intervals (oldest first).
    private var interval: [Int32] = []
    private var flushed: [[Int32]] = []
    /// The histogram's values, sorted; `nil` until the first flush.
    private var snapshot: [Int32]?
    private var nextFlush = bucketLength
    private var nextRefresh = refreshInterval
    /// The delay calls starting now read, in milliseconds; `nil` while it is infinite.
    private(set) var delayMilliseconds: Int32?

    init(percentile: Double) {
        self.percentile = percentile
        // Finagle: no budget (no backup at all) when maxExtraLoad is 0.
        budget = percentile < 1 ? try! RatioBudget(percentCanRetry: 1 - percentile) : nil
    }

    /// Runs the flushes and refreshes due by `now`, in time order.
    mutating func advance(to now: Int64) {
        while min(nextFlush, nextRefresh) <= now {
            if nextFlush <= nextRefresh {
                flushed.append(interval)
                interval.removeAll(keepingCapacity: true)
                if flushed.count > Self.buckets { flushed.removeFirst() }
                snapshot = flushed.flatMap { $0 }.sorted()
                nextFlush += Self.bucketLength
            } else {
                delayMilliseconds = max(Self.minimumMilliseconds, Self.value(atPercentile: percentile, of: snapshot))
                nextRefresh += Self.refreshInterval
            }
        }
    }

    /// HdrHistogram's value at `percentile` (a fraction) of the sorted `values`: the k-th smallest,
    /// k = ⌈(the percentile just below 100·p) · n / 100⌉ and at least 1; 0 when there are none.
    static func value(atPercentile percentile: Double, of values: [Int32]?) -> Int32 {
        guard let values, !values.isEmpty else { return 0 }
        let requested = min(max((100 * percentile).nextDown, 0), 100)
        let k = max(1, Int((requested * Double(values.count) / 100).rounded(.up)))
        return values[min(k, values.count) - 1]
    }

    /// A call starts at `now`: it deposits a request in the budget, and reads when its backup is
    /// due, in nanoseconds after its start (`nil`: no backup).
    mutating func callStarted(at now: Int64) -> Int64? {
        advance(to: now)
        budget?.recordRequest(at: now)
        guard let delay = delayMilliseconds, delay < Self.highestTrackableMilliseconds else { return nil }
        return Int64(delay) * Self.millisecond
    }

    /// Whether the budget lets a backup go at `now` (and takes its token if so).
    mutating func admitsBackup(at now: Int64) -> Bool {
        guard budget != nil else { return false }
        return budget!.acquireRetry(at: now)
    }

    /// A copy sent at `start` succeeded, or was superseded, at `now`.
    mutating func record(start: Int64, now: Int64) {
        advance(to: now)
        let milliseconds = now / Self.millisecond - start / Self.millisecond
        interval.append(Int32(min(milliseconds, Int64(Self.highestTrackableMilliseconds))))
    }
}
