import BackoffPolicies

/// A capacity server's queue: the attempts that found every worker busy, taken by a free worker
/// in the order its ``QueueDiscipline`` says, and shed where it says so. The server keeps the
/// rest of the bookkeeping (a hedge's withdrawn copies, which stay queued until reached).
struct WaitingQueue {
    /// An attempt waiting for a worker since `since` (nanoseconds).
    struct Entry {
        let client: Int32
        let attempt: Int64
        let since: Int64
    }

    /// The discipline's rule in nanoseconds, converted once.
    private enum Rule {
        case fifo, lifo
        case adaptiveLIFO(interval: Int64)
        case controlledDelay(target: Int64, interval: Int64)
    }

    private let rule: Rule
    private var entries = RingBuffer<Entry>()
    /// When the queue last stopped being empty: a standing queue is one that has held an attempt
    /// ever since, for longer than the discipline's interval.
    private var busySince: Int64 = 0

    init(_ discipline: QueueDiscipline) {
        rule =
            switch discipline {
            case .fifo: .fifo
            case .lifo: .lifo
            case .adaptiveLIFO(let interval): .adaptiveLIFO(interval: interval.wholeNanoseconds)
            case .controlledDelay(let target, let interval):
                .controlledDelay(target: target.wholeNanoseconds, interval: interval.wholeNanoseconds)
            }
    }

    /// The entries held, withdrawn ones included.
    var count: Int { entries.count }

    /// `client`'s attempt `attempt` joins the queue at `now`; `wasEmpty` when the queue held no
    /// attempt that still counts (the server's length, without withdrawn copies).
    @inline(__always)
    mutating func append(client: Int32, attempt: Int64, at now: Int64, wasEmpty: Bool) {
        if wasEmpty { busySince = now }
        entries.append(Entry(client: client, attempt: attempt, since: now))
    }

    /// The entry a worker that is free at `now` takes, and whether the discipline sheds it
    /// instead of serving it; `nil` when the queue is empty.
    @inline(__always)
    mutating func next(at now: Int64) -> (entry: Entry, sheds: Bool)? {
        switch rule {
        case .fifo:
            return entries.popFirst().map { ($0, false) }
        case .lifo:
            return entries.popLast().map { ($0, false) }
        case .adaptiveLIFO(let interval):
            let standing = now - busySince > interval
            return (standing ? entries.popLast() : entries.popFirst()).map { ($0, false) }
        case .controlledDelay(let target, let interval):
            guard let entry = entries.popFirst() else { return nil }
            // Facebook's rule: a standing queue holds an attempt up to the target, another up to
            // the interval.
            let limit = now - busySince > interval ? target : interval
            return (entry, now - entry.since > limit)
        }
    }
}
