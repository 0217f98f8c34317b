import EventSimulation

/// Receives each request of a run as it ends (`simulate --requests FILE`), so a caller can keep
/// one row per request without the run holding them: a log that writes each record out keeps
/// memory bounded however many requests run.
///
/// Records come in the order the run ends its requests: completion order for a run through the
/// event queue, client by client (each client's requests in turn) for servers that answer at once
/// (see ``Scenario/run(seed:arrivalSeed:algorithm:requestLog:jobs:progress:)``). The same scenario and seed
/// give the same records in the same order.
public protocol RequestLog: AnyObject {
    func requestEnded(_ request: RequestRecord)
}

/// One request of a run, as it ended.
public struct RequestRecord: Hashable, Sendable {
    /// The client (0-based, in arrival order) and the request within its session (0-based).
    public let client: Int
    public let request: Int
    /// When the request's first attempt left, and when it ended (its answer, or the give-up).
    public let start: VirtualTime
    public let completion: VirtualTime
    /// The client's attempts for this request, and the copies they sent: with a hedge, every copy
    /// sent to a replica; without one, equal to `attempts`.
    public let attempts: Int
    public let copies: Int
    /// The request's total wait: its backoff waits, and its waits for the rate limiter's tokens.
    public let totalWait: Duration
    public let outcome: RequestOutcome

    public init(
        client: Int, request: Int, start: VirtualTime, completion: VirtualTime, attempts: Int, copies: Int,
        totalWait: Duration, outcome: RequestOutcome
    ) {
        self.client = client
        self.request = request
        self.start = start
        self.completion = completion
        self.attempts = attempts
        self.copies = copies
        self.totalWait = totalWait
        self.outcome = outcome
    }
}
