import BackoffPolicies
import EventSimulation
import Stochastics

/// The hedged requests of a `HedgedReplicas` run and their copies, in two tables of slots (a slot
/// is reused once its request or copy ends), with what the requests decide as copies answer.
///
/// A reference, so the replicas' decisions wrapper (``HedgeDecisions``) and the server both reach
/// it while a replica is being called. Nothing here calls a replica: a copy to send or to withdraw
/// is queued (`pending`), and the server carries it out once the replica it is calling returns, so
/// no replica is ever re-entered.
final class HedgedCalls {
    /// A client's attempt, hedged.
    struct Call {
        var client: Int32
        var clientAttempt: Int64
        /// When it reached the replicas, and when its next copy is due (its timer's instant).
        var start: Int64, timerDue: Int64
        var id: Int32
        /// Copies sent, and those still in flight (queued or in service).
        var sent: Int32, inFlight: Int32
        /// The workers' busy time for its copies so far, in nanoseconds (up to 64 copies of up to
        /// virtual time's horizon each: past 64 bits).
        var work: WideSum
        var isAnswered: Bool, isPermanent: Bool, isRetry: Bool
        /// With a per-try timeout (Envoy's): whether the timer is the backoff before the next copy
        /// (its newest copy is then hedged already), not the newest copy's timeout.
        var awaitsBackoff: Bool
        /// With a per-try timeout: the retry backoff's state (its draws so far).
        var backoff: BackoffState?
    }

    /// One copy of a call at one replica.
    struct Copy {
        var call: Int32, replica: Int32, tag: Int32
        /// When it was sent.
        var sent: Int64
        /// When its service started, -1 while it waits in a queue.
        var serviceStart: Int64
        var isLive: Bool
    }

    /// What the server carries out once the replica it called returns.
    enum Pending {
        /// The call (by slot and id) sends its next copy; `granted` when the shared limits have
        /// granted it already.
        case send(call: Int32, id: Int32, granted: Bool)
        /// The copy (by slot and tag) is withdrawn from its replica.
        case withdraw(copy: Int32, tag: Int32)
        /// The call (by slot and id), granted a next copy already, draws its retry backoff and
        /// sends the copy after it (a per-try timeout's hedge, or a retry after a failure).
        case backoff(call: Int32, id: Int32)
    }

    let hedging: Hedging
    /// The retry backoff of Envoy's per-try timeout rule (``Hedging/Rule/perTryTimeout(_:backoff:)``),
    /// taken from the rule once, so that no call copies it out of the enum; `nil` for the other rules.
    let perTryBackoff: BackoffPolicy?
    /// The fixed delay or the per-try timeout between copies, in nanoseconds; `nil` for Finagle's
    /// percentile, whose delay the run measures (taken from the rule once, as `perTryBackoff`).
    let copySpacing: Int64?
    let replicas: Int
    /// The server's own events (after the replica's, which number theirs below 6; before a
    /// stack's, from 9): a call's timer, and a cancellation reaching a loser's replica (with a
    /// cancellation delay).
    static let timerEvent: UInt32 = 6
    static let withdrawEvent: UInt32 = 7

    /// What changes as the run goes, behind one pointer: a class's stored `var`s would pay a
    /// dynamic exclusivity check at every access, and this is the hedge's hot path. The properties
    /// below read and modify it in place.
    private struct State {
        var calls: [Call] = [], copies: [Copy] = []
        var freeCalls: [Int32] = [], freeCopies: [Int32] = []
        /// Each call's copies, `hedging.copies` slots per call slot (copy slots, in the order sent).
        var callCopies: [Int32] = []
        var nextID: Int32 = 0
        var pending: [Pending] = []
        var pendingStart = 0
        // The tally.
        var requests = 0, copiesSent = 0, withdrawn = 0, refused = 0
        /// The workers' busy time, nanoseconds: every copy's, which outgrows 64 bits (400 clients
        /// of 10,000 h services).
        var work = WideSum()
        /// Σ (a call's work in seconds)² and Σ (a call's copies)², over the calls released.
        var workSquares = 0.0, copySquares = 0.0
        var responses: [Double] = []
        /// Batches of calls in the order they end, for the standard errors of copies, work and
        /// response time where the clients arrive over time (``HedgeTally/usesBatchMeans``).
        var batches: HedgeBatches?
        /// Whether a call or copy found every slot taken (the run then fails).
        var overflowed = false
        /// Finagle's delay and budget, for a percentile hedge.
        var backup: BackupRequestDelay?
    }

    private let state: UnsafeMutablePointer<State>

    private(set) var calls: [Call] {
        _read { yield state.pointee.calls }
        _modify { yield &state.pointee.calls }
    }
    private(set) var copies: [Copy] {
        _read { yield state.pointee.copies }
        _modify { yield &state.pointee.copies }
    }
    private var freeCalls: [Int32] {
        _read { yield state.pointee.freeCalls }
        _modify { yield &state.pointee.freeCalls }
    }
    private var freeCopies: [Int32] {
        _read { yield state.pointee.freeCopies }
        _modify { yield &state.pointee.freeCopies }
    }
    private var callCopies: [Int32] {
        _read { yield state.pointee.callCopies }
        _modify { yield &state.pointee.callCopies }
    }
    private var nextID: Int32 {
        get { state.pointee.nextID }
        set { state.pointee.nextID = newValue }
    }
    var pending: [Pending] {
        _read { yield state.pointee.pending }
        _modify { yield &state.pointee.pending }
    }
    private var pendingStart: Int {
        get { state.pointee.pendingStart }
        set { state.pointee.pendingStart = newValue }
    }
    private var responses: [Double] {
        _read { yield state.pointee.responses }
        _modify { yield &state.pointee.responses }
    }
    private(set) var overflowed: Bool {
        get { state.pointee.overflowed }
        set { state.pointee.overflowed = newValue }
    }

    /// Calls of `hedging` over `replicas` replicas; `batchesCalls`: the standard errors come from
    /// batches of calls (the clients arrive over time, ``Scenario/usesBatchMeans``).
    init(hedging: Hedging, replicas: Int, batchesCalls: Bool = false) {
        self.hedging = hedging
        switch hedging.rule {
        case .fixedDelay(let delay): (perTryBackoff, copySpacing) = (nil, delay.wholeNanoseconds)
        case .percentile: (perTryBackoff, copySpacing) = (nil, nil)
        case .perTryTimeout(let timeout, let backoff):
            (perTryBackoff, copySpacing) = (backoff, timeout.wholeNanoseconds)
        }
        self.replicas = replicas
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(
                batches: batchesCalls ? HedgeBatches() : nil,
                backup: hedging.rule.percentile.map(BackupRequestDelay.init(percentile:))))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The most calls, or copies, in progress at once: an event names its slot in 28 bits.
    static let maximumSlots = ScenarioEvent.maximumClients

    // MARK: Calls

    /// A client's attempt reaches the replicas: a new call, or `nil` when the table is full.
    func open(client: Int, attempt: Int64, isRetry: Bool, isPermanent: Bool, now: Int64) -> Int32? {
        state.pointee.requests += 1
        advanceID()
        let call = Call(
            client: Int32(client), clientAttempt: attempt, start: now, timerDue: -1, id: nextID, sent: 0,
            inFlight: 0, work: WideSum(), isAnswered: false, isPermanent: isPermanent, isRetry: isRetry,
            awaitsBackoff: false,
            backoff: perTryBackoff.map(BackoffState.init(policy:)))
        if let slot = freeCalls.popLast() {
            calls[Int(slot)] = call
            return slot
        }
        guard calls.count < Self.maximumSlots else {
            overflowed = true
            return nil
        }
        calls.append(call)
        callCopies.append(contentsOf: repeatElement(-1, count: hedging.copies))
        return Int32(calls.count - 1)
    }

    /// The call sends its next copy to a replica that none of its copies used (any, once as many
    /// copies as replicas went), drawn with `uniform`; returns the copy's slot, tag and replica.
    func addCopy(to call: Int32, now: Int64, uniform: () -> Double) -> (slot: Int32, tag: Int32, replica: Int) {
        let c = Int(call)
        let sent = Int(calls[c].sent)
        let base = c * hedging.copies
        var replica = 0
        if replicas > 1 {
            // Uniform among the replicas this call has not used: draw among all, and draw again on
            // a used one (rejection sampling; at most `copies` of them are used, and none is
            // avoided once every replica has a copy).
            let avoids = sent < replicas
            repeat {
                replica = min(Int(uniform() * Double(replicas)), replicas - 1)
            } while avoids && (0..<sent).contains { Int(copies[Int(callCopies[base + $0])].replica) == replica }
        }
        advanceID()
        let copy = Copy(call: call, replica: Int32(replica), tag: nextID, sent: now, serviceStart: -1, isLive: true)
        let slot: Int32
        if let free = freeCopies.popLast() {
            slot = free
            copies[Int(slot)] = copy
        } else {
            if copies.count >= Self.maximumSlots { overflowed = true }
            copies.append(copy)
            slot = Int32(truncatingIfNeeded: copies.count - 1)
        }
        callCopies[base + sent] = slot
        calls[c].sent += 1
        calls[c].inFlight += 1
        state.pointee.copiesSent += 1
        return (slot, nextID, replica)
    }

    /// The next id or tag: run-unique while 2^32 calls and copies fit, never 0 (a released call's).
    private func advanceID() {
        nextID &+= 1
        if nextID == 0 { nextID = 1 }
    }

    /// Whether a copy's attempt is still the live copy in its slot.
    func isLive(_ copy: Int, tag: Int64) -> Bool { copies[copy].isLive && Int64(copies[copy].tag) == tag }

    func call(of copy: Int) -> Call { calls[Int(copies[copy].call)] }

    func setTimer(_ call: Int32, due: Int64) { calls[Int(call)].timerDue = due }

    /// The call's timer now counts down the backoff before its next copy (`true`), or it fired.
    func setAwaitsBackoff(_ call: Int32, _ awaits: Bool) { calls[Int(call)].awaitsBackoff = awaits }

    /// Draws the call's retry backoff before its next copy, in nanoseconds (`nil` once the copies
    /// are spent).
    func drawBackoff<Random: UniformSource>(_ call: Int32, using random: inout Random) -> Int64? {
        guard let policy = perTryBackoff, var backoff = calls[Int(call)].backoff else { return nil }
        defer { calls[Int(call)].backoff = backoff }
        return policy.nextWait(after: &backoff, elapsed: 0, using: &random)
    }

    /// When the next copy of a call that just sent one is due, in nanoseconds after it (`nil`:
    /// never): the hedge's delay; with a per-try timeout, the timeout (the copy then waits a
    /// backoff); or, for a percentile hedge, Finagle's delay as the call starts (asked once per
    /// call, as its first copy goes: the call's request is deposited in the budget).
    func nextCopyDelay(now: Int64) -> Int64? {
        copySpacing ?? state.pointee.backup!.callStarted(at: now)
    }

    /// Whether a copy after the first may go now: always for a fixed delay; for a percentile
    /// hedge, when Finagle's backup budget grants it (and it then takes a token).
    func admitsNextCopy(now: Int64) -> Bool {
        guard state.pointee.backup != nil else { return true }
        return state.pointee.backup!.admitsBackup(at: now)
    }

    /// A budget refused the call's next copy: it is not sent.
    func copyRefused() { state.pointee.refused += 1 }

    /// A percentile hedge records the latency of a copy that succeeded or was superseded.
    private func recordLatency(of copy: Int, now: Int64) {
        guard state.pointee.backup != nil else { return }
        state.pointee.backup!.record(start: copies[copy].sent, now: now)
    }

    func serviceStarted(_ copy: Int, now: Int64) { copies[copy].serviceStart = now }

    // MARK: Copies ending

    /// The copy's work ended now (its service done, or a rejection before it began), with `answer`
    /// when its call still waits for it; returns the call's answer to its client when this settles
    /// it, and queues what the call does next (its next copy, the losers' withdrawal). A failure
    /// sends the next copy only if `mayHedge` (the shared limits) grants it; otherwise the call
    /// waits for its copies in flight, or answers with the failure when none is left.
    func copyEnded(
        _ copy: Int, answer: ClientAnswer?, now: Int64, clientAwaits: Bool, mayHedge: () -> Bool
    ) -> ClientAnswer? {
        let c = Int(copies[copy].call)
        // A success; or a loser served to its end (its answer, a success, goes nowhere).
        let served = copies[copy].serviceStart >= 0
        if answer == .success || (answer == nil && served && !calls[c].isPermanent) {
            recordLatency(of: copy, now: now)
        }
        end(copy, now: now)
        guard let answer, !calls[c].isAnswered else {
            // A loser's end, or the last copy of a call whose client stopped waiting.
            if calls[c].inFlight == 0 { calls[c].isAnswered = true }
            releaseIfDone(c)
            return nil
        }
        switch answer {
        case .failure where state.pointee.backup != nil, .permanentError where state.pointee.backup != nil:
            // Finagle: the first copy to end answers the call, unless it failed with the backup
            // out; then the backup's answer is the call's. A failure sends no backup.
            guard calls[c].inFlight == 0 else { return nil }
            settle(c, now: now)
            return answer
        case .success, .permanentError:
            // The first success wins; a fatal error ends the call. Either way the others stop.
            if case .permanentError = answer {
                withdrawAll(of: c, now: now)
            } else if hedging.cancelsLosers {
                withdrawAll(of: c, now: now)
            }
            settle(c, now: now)
            return answer
        case .failure where perTryBackoff != nil:
            // Envoy: a failure of the newest copy, not hedged yet, is retried after a backoff; that
            // of a copy hedged already is dropped while another copy is in flight or due.
            let isNewest = callCopies[c * hedging.copies + Int(calls[c].sent) - 1] == Int32(copy)
            if isNewest && !calls[c].awaitsBackoff {
                calls[c].timerDue = -1  // its per-try timeout no longer fires
                if Int(calls[c].sent) < hedging.copies && clientAwaits {
                    if mayHedge() {
                        pending.append(.backoff(call: Int32(c), id: calls[c].id))
                        calls[c].awaitsBackoff = true
                        return nil
                    }
                    copyRefused()
                }
            }
            guard calls[c].inFlight == 0 && !calls[c].awaitsBackoff else { return nil }
            settle(c, now: now)
            return answer
        case .failure:
            // A non-fatal failure sends the next copy at once; the last one answers the call.
            if Int(calls[c].sent) < hedging.copies && clientAwaits {
                if mayHedge() {
                    pending.append(.send(call: Int32(c), id: calls[c].id, granted: true))
                    return nil
                }
                copyRefused()
            }
            guard calls[c].inFlight == 0 else { return nil }
            settle(c, now: now)
            return answer
        case .timeout, .rejectedLocally, .deadlineExceeded:
            preconditionFailure("a replica answers with a success, a failure or a permanent error")
        }
    }

    /// The call is answered now: its response time is recorded, and its slot freed once no copy
    /// is left in flight.
    private func settle(_ c: Int, now: Int64) {
        calls[c].isAnswered = true
        responses.append(Double(now - calls[c].start) / 1e9)
        releaseIfDone(c)
    }

    /// The copy in `slot` is withdrawn now, if it is still the live copy `tag`: returns its
    /// replica and whether it was in service, for the replica to let it go.
    func withdraw(_ slot: Int, tag: Int32, now: Int64) -> (replica: Int, inService: Bool)? {
        guard copies[slot].isLive, copies[slot].tag == tag else { return nil }
        let inService = copies[slot].serviceStart >= 0
        state.pointee.withdrawn += 1
        let replica = Int(copies[slot].replica)
        let c = Int(copies[slot].call)
        end(slot, now: now)
        releaseIfDone(c)
        return (replica, inService)
    }

    /// The call's client stopped waiting before any answer: it sends no more copies, and ends
    /// once its copies do.
    func abandon(_ call: Int32) {
        guard calls[Int(call)].inFlight == 0 else { return }
        calls[Int(call)].isAnswered = true
        releaseIfDone(Int(call))
    }

    /// Cancels the call's live copies now. A percentile hedge records each as superseded at once, as
    /// Finagle's client does when it interrupts it (only a winner's success withdraws with one).
    private func withdrawAll(of c: Int, now: Int64) {
        for k in 0..<Int(calls[c].sent) {
            let slot = callCopies[c * hedging.copies + k]
            guard copies[Int(slot)].isLive else { continue }
            recordLatency(of: Int(slot), now: now)
            pending.append(.withdraw(copy: slot, tag: copies[Int(slot)].tag))
        }
    }

    /// The copy's work ends now: its busy time is counted and its slot freed.
    private func end(_ copy: Int, now: Int64) {
        let c = Int(copies[copy].call)
        if copies[copy].serviceStart >= 0 {
            let busy = UInt64(now - copies[copy].serviceStart)
            state.pointee.work.add(low: busy)
            calls[c].work.add(low: busy)
        }
        copies[copy].isLive = false
        freeCopies.append(Int32(copy))
        calls[c].inFlight -= 1
    }

    private func releaseIfDone(_ c: Int) {
        if calls[c].isAnswered && calls[c].inFlight == 0 && calls[c].id != 0 {
            let seconds = calls[c].work.value / 1e9
            state.pointee.workSquares += seconds * seconds
            state.pointee.copySquares += Double(calls[c].sent) * Double(calls[c].sent)
            state.pointee.batches?.callReleased(copies: Double(calls[c].sent), work: seconds)
            calls[c].id = 0  // no timer or pending send matches a released call
            freeCalls.append(Int32(c))
        }
    }

    /// The next pending action, first in first out.
    func popPending() -> Pending? {
        guard pendingStart < pending.count else {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            return nil
        }
        defer { pendingStart += 1 }
        return pending[pendingStart]
    }

    /// The run's tally.
    var tally: HedgeTally {
        let state = state.pointee
        return HedgeTally(
            requests: state.requests, copies: state.copiesSent, withdrawn: state.withdrawn, refused: state.refused,
            work: state.work.value / 1e9, workSquares: state.workSquares, copySquares: state.copySquares,
            responseTimes: state.responses, batches: state.batches)
    }
}

extension Hedging.Rule {
    /// The percentile of Finagle's rule, `nil` for the others.
    var percentile: Double? {
        if case .percentile(let percentile) = self { percentile } else { nil }
    }
}
