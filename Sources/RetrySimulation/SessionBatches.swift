import Stochastics

/// The standard errors of a run whose clients interact and arrive over time, from 32 batches of
/// its sessions in arrival order (`BatchRatio`): attempts per client, the mean total wait and
/// the successes.
///
/// Clients that share a rate limit's bucket, a server's queue, a budget or a stack do not fail
/// independently: a throttle leaves the bucket empty for the next arrival, a queue that is long now
/// is long a moment later. The sessions' own spread then misstates the spread of their mean (a
/// 20-token bucket at its rate: 2.8 times too small), and a check against a formula fails a
/// correct run. Sessions start in time order (`Scenario.arrivalTimes`), so a batch is a stretch of
/// the run, long beside its correlation time when the run is long beside it.
///
/// One array of per-batch totals, written once per request and once per session.
struct SessionBatches {
    private struct Totals {
        var attempts = 0.0, requests = 0.0, successes = 0.0, waits = 0.0
    }

    private let partition: BatchRatio
    private var totals: [Totals]

    /// Batches of `sessions` sessions; `nil` below 2 sessions a batch.
    init?(sessions: Int) {
        guard let partition = BatchRatio(units: sessions) else { return nil }
        self.partition = partition
        totals = [Totals](repeating: Totals(), count: BatchRatio.batches)
    }

    /// A request of `session` ended, `succeeded` or not, having waited `totalWait` nanoseconds.
    @inline(__always)
    mutating func requestEnded(session: Int, succeeded: Bool, totalWait: Int64) {
        let b = partition.batch(of: session)
        totals.withUnsafeMutableBufferPointer { totals in
            totals[b].requests += 1
            totals[b].successes += succeeded ? 1 : 0
            totals[b].waits += Double(totalWait)
        }
    }

    /// `session` made `attempts` attempts in all (its own, or the server's on its behalf).
    @inline(__always)
    mutating func sessionEnded(_ session: Int, attempts count: Int) {
        totals[partition.batch(of: session)].attempts += Double(count)
    }

    /// Every session's attempts at once, by session (a composite's server attempts, counted as
    /// they went): summed batch by batch.
    mutating func sessionsEnded(attempts: [Int]) {
        for b in 0..<BatchRatio.batches {
            totals[b].attempts += Double(attempts[partition.range(of: b)].reduce(0, +))
        }
    }

    /// The standard errors of attempts per client, the mean total wait (seconds) and the count of
    /// successes (the requests that ended times the standard error of their success share).
    func standardErrors() -> (attempts: Double, meanTotalWait: Double, successes: Double) {
        let sessions = (0..<BatchRatio.batches).map { Double(partition.units(in: $0)) }
        let requests = totals.map(\.requests)
        return (
            BatchRatio.standardError(x: sessions, y: totals.map(\.attempts)),
            BatchRatio.standardError(x: requests, y: totals.map(\.waits)) / 1e9,
            requests.reduce(0, +) * BatchRatio.standardError(x: requests, y: totals.map(\.successes))
        )
    }
}
