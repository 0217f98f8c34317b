import BackoffPolicies
import Synchronization

/// The decisions of a run's hedged calls, event by event (``HedgeEvent``), kept when a test runs a
/// scenario inside ``current``'s `withValue`: the simulation's side of the trace that
/// `Retrier.hedge` gives with its `onEvent`, so the two drivers of `HedgedCallMachine` can be
/// compared. A run that nobody traces reads `nil` once and pays nothing more.
final class HedgeTraceLog: Sendable {
    /// One event of one call: its client, the client's attempt, and the virtual time in nanoseconds.
    struct Entry: Hashable, Sendable {
        let client: Int
        let attempt: Int64
        let time: Int64
        let event: HedgeEvent
    }

    /// The log the runs started in this task record into.
    @TaskLocal static var current: HedgeTraceLog?

    private let entries = Mutex<[Entry]>([])

    init() {}

    func record(_ call: HedgedCalls.Call, _ event: HedgeEvent, now: Int64) {
        let entry = Entry(client: Int(call.client), attempt: call.clientAttempt, time: now, event: event)
        entries.withLock { $0.append(entry) }
    }

    /// Every event so far, in the order the run made them.
    var events: [Entry] { entries.withLock { $0 } }
}
