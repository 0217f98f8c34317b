import EventSimulation
import Stochastics

/// What the server at the bottom of a ``ServiceStack`` decides, as the stack carries it out: its
/// "clients" are the bottom layer's calls (by slot). Its attempts, queue, waste and timeline
/// records go to the run's driver (`outer`), since the load is the server's; its answers go to
/// the calls, and up the stack from there. Its draws come from the stack's own stream for it.
///
/// The rest of what it decides reaches the driver as it is (``NestedDecisions``). The bottom server
/// may be a hedge (``HedgedReplicas``), whose decisions about its copies the bottom layer's limits
/// hear (``HedgeDecisions``).
struct StackDecisions<Outer: HedgeDecisions>: NestedDecisions, HedgeDecisions {
    let outer: UnsafeMutablePointer<Outer>
    let calls: StackCalls

    static var eventBase: UInt32 { UInt32(StackCalls.Event.allCases.count) }

    private var serverStream: Int { calls.layers.count }

    /// The session whose request the bottom layer's call in slot `client` serves.
    func outerClient(of client: Int) -> Int { Int(calls[client].session) }

    func random(for client: Int) -> ClientRandom { calls.random(serverStream) }

    func exponential(for client: Int, mean: Double) -> Double { calls.streams.exponential(serverStream, mean: mean) }

    func lognormal(for client: Int, mu: Double, sigma: Double) -> Double {
        calls.streams.lognormal(serverStream, mu: mu, sigma: sigma)
    }

    func isAwaiting(_ client: Int, attempt: Int64) -> Bool { calls[client].awaits(attempt) }

    func isPermanent(_ client: Int) -> Bool { calls[client].isPermanent }

    func isRetrying(_ client: Int) -> Bool { calls[client].isRetry }

    /// A stack's calls cancel work below them: with deadline propagation, or a hedge that cancels.
    static var mayCancelWork: Bool { true }

    /// With deadline propagation, an attempt its call stopped waiting for (its per-try timeout or
    /// its deadline passed) is cancelled; without, the server cannot know. An attempt whose call
    /// a hedge above cancelled is cancelled too (its tag is taken from the set of cancelled ones).
    func takeCancellation(_ client: Int, attempt: Int64) -> Bool {
        guard calls.propagatesDeadline || calls.cancelsBelow, !calls[client].awaits(attempt) else { return false }
        return calls.takeCancelled(attempt) || calls.propagatesDeadline
    }

    func isWithdrawn(_ client: Int, attempt: Int64) -> Bool { false }

    func requestStart(of client: Int) -> VirtualTime { calls[client].retries.requestStart }

    /// The call in `client`'s slot is answered about its attempt in flight (the server answers an
    /// attempt only while its call waits for it, or at once).
    mutating func answer(_ client: Int, _ answer: ClientAnswer, recording outcome: AttemptOutcome?) {
        if let outcome { outer.pointee.recordAnswer(outcome) }
        if !calls.reachesClient(client, &outer.pointee) { calls.orphanedAttempts += 1 }
        calls.answered(client, tag: Int64(calls[client].attempt), answer, &outer.pointee)
    }

    mutating func reject(_ client: Int, retryAfter: Int64?) {
        outer.pointee.recordRejection()
        calls.answered(client, tag: Int64(calls[client].attempt), .failure(serverDelay: retryAfter), &outer.pointee)
    }

    /// A hedged copy of a bottom call's attempt (hedged replicas below the stack): the driver
    /// counts copies per client request only, and a bottom call is not one.
    mutating func copySent(for client: Int) {}

    /// The bottom layer's limits grant a hedge's copy after the first, as a retry.
    mutating func grantsHedge(for client: Int) -> Bool { calls.grantsHedge(client, at: now.nanoseconds) }

    mutating func copyFailed(for client: Int) { calls.copyFailed(client, at: now.nanoseconds) }

    /// Work done for an attempt its call had stopped waiting for: wasted, and orphaned.
    mutating func serviceStarted(_ client: Int, attempt: Int64) {}

    mutating func wasted(_ client: Int, attempt: Int64) {
        if calls.cancelsBelow { _ = calls.takeCancelled(attempt) }
        outer.pointee.wasted(client, attempt: attempt)
        calls.orphanedAttempts += 1
    }

    /// Counted by the driver; the call had stopped waiting already, so nothing else follows.
    mutating func dropped(_ client: Int, attempt: Int64) {
        if calls.cancelsBelow { _ = calls.takeCancelled(attempt) }
        outer.pointee.dropped(client, attempt: attempt)
    }
}
