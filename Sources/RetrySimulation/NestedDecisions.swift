import EventSimulation

/// The decisions of a server that runs inside another server (the bottom server of a
/// ``ServiceStack``, the replicas behind `HedgedReplicas`): what it says about the load (attempts
/// counted, answers and rejections recorded, the queue's length) and its events go to the
/// wrapper's own decisions, `outer`, as they are (its events' numbers shifted past the wrapper's);
/// its answers, its draws and who its "clients" are are the wrapper's. It makes only the decisions
/// of ``ServerDecisions``: one wrapping a hedge adds the hedge's (``StackDecisions``).
///
/// `outer` is valid only while the wrapper handles one attempt or event.
protocol NestedDecisions: ServerDecisions {
    associatedtype Outer: ServerDecisions
    var outer: UnsafeMutablePointer<Outer> { get }
    /// The outer server's client on whose behalf this server's `client` attempts (a copy's call's
    /// client, a call's session).
    func outerClient(of client: Int) -> Int
    /// The number the wrapper's events end at: this server's event `n` is the wrapper's `eventBase + n`.
    static var eventBase: UInt32 { get }
}

extension NestedDecisions {
    /// Reads the driver in place: a non-mutating call through `outer.pointee` made a copy of the
    /// whole driver first (its scenario, policy and limits).
    @inline(__always)
    func driver<Result>(_ body: (inout Outer) -> Result) -> Result { body(&outer.pointee) }

    var now: VirtualTime { driver { $0.now } }

    mutating func counted(_ client: Int, isRetry: Bool, answeredAtOnce outcome: AttemptOutcome?) {
        outer.pointee.counted(outerClient(of: client), isRetry: isRetry, answeredAtOnce: outcome)
    }

    mutating func recordAnswer(_ outcome: AttemptOutcome) { outer.pointee.recordAnswer(outcome) }

    mutating func recordRejection() { outer.pointee.recordRejection() }

    mutating func queued(length: Int) { outer.pointee.queued(length: length) }

    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, after delay: Int64) {
        outer.pointee.schedule(Self.eventBase + number, for: client, value: value, after: delay)
    }

    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, at time: VirtualTime) {
        outer.pointee.schedule(Self.eventBase + number, for: client, value: value, at: time)
    }

    /// The wrapper arms its callers' timeouts itself (a layer's per-try timeout when the attempt
    /// leaves, the client's once per hedged attempt).
    mutating func armTimeout(_ client: Int, attempt: Int64) {}

}
