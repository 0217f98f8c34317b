import EventSimulation
import Stochastics

/// What a replica behind `HedgedReplicas` decides, as the hedge carries it out: its "clients" are
/// copies (by slot, their tags as attempt numbers). Its attempts, queue, waste and timeline records
/// go to the run's driver (`outer`), since the load is the server's; its answers go to the copy's
/// call (``HedgedCalls``), which answers the client. A copy draws from its client's stream.
///
/// The rest of what it decides reaches the driver as it is (``NestedDecisions``).
struct ReplicaDecisions<Outer: HedgeDecisions>: NestedDecisions {
    let outer: UnsafeMutablePointer<Outer>
    let calls: HedgedCalls

    static var eventBase: UInt32 { UInt32(HedgedCalls.Event.allCases.count) }

    private func client(of copy: Int) -> Int { Int(calls.call(of: copy).client) }

    /// The client whose call the copy in slot `client` belongs to.
    func outerClient(of client: Int) -> Int { self.client(of: client) }

    func random(for client: Int) -> ClientRandom { driver { $0.random(for: self.client(of: client)) } }

    func exponential(for client: Int, mean: Double) -> Double {
        driver { $0.exponential(for: self.client(of: client), mean: mean) }
    }

    func lognormal(for client: Int, mu: Double, sigma: Double) -> Double {
        driver { $0.lognormal(for: self.client(of: client), mu: mu, sigma: sigma) }
    }

    /// A copy is awaited while it is live, its call unanswered and its client still waiting.
    func isAwaiting(_ client: Int, attempt: Int64) -> Bool {
        guard calls.isLive(client, tag: attempt) else { return false }
        let call = calls.call(of: client)
        return !call.machine.isAnswered && driver { $0.isAwaiting(Int(call.client), attempt: call.clientAttempt) }
    }

    func isPermanent(_ client: Int) -> Bool { calls.call(of: client).isPermanent }

    func isRetrying(_ client: Int) -> Bool { calls.call(of: client).isRetry }

    static var mayCancelWork: Bool { Outer.mayCancelWork }

    /// A copy whose call's attempt was cancelled above (a stack's deadline propagation, or a hedge
    /// above that cancelled its loser) leaves the queue unserved, and so does each other queued
    /// copy of that call: the first one dequeued asks the wrapper, whose answer the call keeps.
    /// The copy ends for nobody, as a copy whose client stopped waiting does.
    mutating func takeCancellation(_ client: Int, attempt: Int64) -> Bool {
        guard Outer.mayCancelWork else { return false }
        let c = Int(calls.copies[client].call)
        if !calls.calls[c].isCancelled {
            let call = calls.calls[c]
            guard outer.pointee.takeCancellation(Int(call.client), attempt: call.clientAttempt) else { return false }
            calls.calls[c].isCancelled = true
        }
        copyEnded(client, nil)
        return true
    }

    /// A withdrawn copy's slot is free (or holds a later copy): its queued entry is stale.
    func isWithdrawn(_ client: Int, attempt: Int64) -> Bool { !calls.isLive(client, tag: attempt) }

    func requestStart(of client: Int) -> VirtualTime { driver { $0.requestStart(of: self.client(of: client)) } }

    /// The replica answers the copy: recorded in the timeline, then handed to its call, which
    /// answers the client when this settles it.
    mutating func answer(_ client: Int, _ answer: ClientAnswer, recording outcome: AttemptOutcome?) {
        if let outcome { outer.pointee.recordAnswer(outcome) }
        copyEnded(client, answer)
    }

    mutating func reject(_ client: Int, retryAfter: Int64?) {
        outer.pointee.recordRejection()
        copyEnded(client, .failure(serverDelay: retryAfter))
    }

    /// A copy's end goes to its call. A failure that does not answer the call is a failed attempt
    /// to the shared limits now; the call's answer is recorded when it reaches the client.
    private mutating func copyEnded(_ copy: Int, _ answer: ClientAnswer?) {
        let call = calls.call(of: copy)
        let client = Int(call.client)
        let awaits = driver { $0.isAwaiting(client, attempt: call.clientAttempt) }
        let outer = self.outer
        let settled = calls.copyEnded(copy, answer: answer, now: now.nanoseconds, clientAwaits: awaits) {
            outer.pointee.grantsHedge(for: client)
        }
        if let settled, awaits {
            outer.pointee.answer(client, settled, recording: nil)
        } else if case .failure = answer, settled == nil, !call.machine.isAnswered {
            outer.pointee.copyFailed(for: client)
        }
    }

    mutating func serviceStarted(_ client: Int, attempt: Int64) { calls.serviceStarted(client, now: now.nanoseconds) }

    /// Work done for a copy nobody waits for: a loser left to run, or a copy whose client timed out.
    mutating func wasted(_ client: Int, attempt: Int64) {
        let call = calls.call(of: client)
        outer.pointee.wasted(Int(call.client), attempt: call.clientAttempt)
        copyEnded(client, nil)
    }

    /// The copy ends unserved: counted by the driver, and its call hears of it as of a copy whose
    /// answer nobody waited for.
    mutating func dropped(_ client: Int, attempt: Int64) {
        let call = calls.call(of: client)
        outer.pointee.dropped(Int(call.client), attempt: call.clientAttempt)
        copyEnded(client, nil)
    }
}
