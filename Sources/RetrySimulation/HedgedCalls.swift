import BackoffPolicies
import EventSimulation
import Stochastics

/// The hedged requests of a `HedgedReplicas` run and their copies, in two tables of slots (a slot
/// is reused once its request or copy ends), with what the requests decide as copies answer.
///
/// A reference, so the replicas' decisions wrapper (``ReplicaDecisions``) and the server both reach
/// it while a replica is being called. Nothing here calls a replica: a copy to send or to withdraw
/// is queued (`pending`), and the server carries it out once the replica it is calling returns, so
/// no replica is ever re-entered.
final class HedgedCalls {
    let hedging: Hedging
    /// The retry backoff of Envoy's per-try timeout rule (``Hedging/Rule/perTryTimeout(_:backoff:)``),
    /// taken from the rule once, so that no call copies it out of the enum; `nil` for the other rules.
    let perTryBackoff: BackoffPolicy?
    /// The fixed delay or the per-try timeout between copies, in nanoseconds; `nil` for Finagle's
    /// percentile, whose delay the run measures (taken from the rule once, as `perTryBackoff`).
    let copySpacing: Int64?
    let replicas: Int
    /// Whether some hosts are faulty or retries pick under a predicate (``HostTracking``).
    let tracksHosts: Bool
    /// A new call's decisions, made once from the rule.
    private let freshMachine: HedgedCallMachine
    /// Where each call's decisions are traced, when a test asks (``HedgeTraceLog/current``).
    let trace = HedgeTraceLog.current
    /// The hedge's own events; the replicas' are numbered after them (``HedgedReplicas/eventKinds``).
    enum Event: UInt32, CaseIterable {
        /// A call's timer (value: the timer's id).
        case timer
        /// A cancellation reaches a loser's replica, a cancellation delay after the answer (value:
        /// the copy's tag).
        case withdraw
    }

    /// What changes as the run goes, behind one pointer: a class's stored `var`s would pay a
    /// dynamic exclusivity check at every access, and this is the hedge's hot path. The properties
    /// below read and modify it in place (and the tally, HedgedCalls+Tally.swift).
    struct State {
        var calls: [Call] = [], copies: [Copy] = []
        var freeCalls: [Int32] = [], freeCopies: [Int32] = []
        /// Each call's copies, `hedging.copies` slots per call slot (copy slots, in the order sent).
        var callCopies: [Int32] = []
        var nextID: Int32 = 0
        var pending: [Pending] = []
        var pendingStart = 0
        // The tally.
        var requests = 0, copiesSent = 0, withdrawn = 0, refused = 0
        /// Copies sent to faulty hosts, and the hosts each request tried under a retry host predicate.
        var hosts: HostTracking
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
        /// Which replica each copy goes to, and the copies in flight at each.
        var balancer: ReplicaBalancer
    }

    let state: UnsafeMutablePointer<State>

    // Read and written by the endings (HedgedCalls+Endings.swift) too.
    var calls: [Call] {
        _read { yield state.pointee.calls }
        _modify { yield &state.pointee.calls }
    }
    var copies: [Copy] {
        _read { yield state.pointee.copies }
        _modify { yield &state.pointee.copies }
    }
    var freeCalls: [Int32] {
        _read { yield state.pointee.freeCalls }
        _modify { yield &state.pointee.freeCalls }
    }
    var freeCopies: [Int32] {
        _read { yield state.pointee.freeCopies }
        _modify { yield &state.pointee.freeCopies }
    }
    /// A copy at `replica` ended: the balancer counts one fewer in flight there.
    func copyLeftReplica(_ replica: Int) { state.pointee.balancer.ended(at: replica) }
    var callCopies: [Int32] {
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
    var responses: [Double] {
        _read { yield state.pointee.responses }
        _modify { yield &state.pointee.responses }
    }
    private(set) var overflowed: Bool {
        get { state.pointee.overflowed }
        set { state.pointee.overflowed = newValue }
    }
    /// The hosts' tracking, the balancer and the batches, in place (HedgedCalls+Hosts.swift).
    func withHosts<Result>(_ body: (inout HostTracking, inout ReplicaBalancer, inout HedgeBatches?) -> Result) -> Result
    {
        body(&state.pointee.hosts, &state.pointee.balancer, &state.pointee.batches)
    }
    /// Read and written when the next copy is asked for (HedgedCalls+NextCopy.swift).
    var backup: BackupRequestDelay? {
        _read { yield state.pointee.backup }
        _modify { yield &state.pointee.backup }
    }
    var refused: Int {
        get { state.pointee.refused }
        set { state.pointee.refused = newValue }
    }

    /// Calls of `hedging` over `replicas` replicas shared by `balancer`, the first `faultyHosts` of
    /// them faulty, a retry's host picked under `hostPredicate`; `batchesCalls`: the standard errors
    /// come from batches of calls (the clients arrive over time, ``Scenario/usesBatchMeans``);
    /// `countsHostLoads`: each host's load is counted (``HostLoad``).
    init(
        hedging: Hedging, replicas: Int, balancer: Balancer = .random, faultyHosts: Int = 0,
        hostPredicate: RetryHostPredicate? = nil, outlierDetection: OutlierDetection? = nil, batchesCalls: Bool = false,
        countsHostLoads: Bool = false
    ) {
        tracksHosts = faultyHosts > 0 || hostPredicate != nil || outlierDetection != nil || countsHostLoads
        self.hedging = hedging
        switch hedging.rule {
        case .fixedDelay(let delay): (perTryBackoff, copySpacing) = (nil, delay.wholeNanoseconds)
        case .percentile: (perTryBackoff, copySpacing) = (nil, nil)
        case .perTryTimeout(let timeout, let backoff):
            (perTryBackoff, copySpacing) = (backoff, timeout.wholeNanoseconds)
        }
        self.replicas = replicas
        freshMachine = HedgedCallMachine(hedging)
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(
                hosts: HostTracking(
                    replicas: replicas, faultyHosts: faultyHosts, predicate: hostPredicate,
                    detection: outlierDetection, countsLoads: countsHostLoads),
                batches: batchesCalls ? HedgeBatches() : nil,
                backup: hedging.rule.percentile.map(BackupRequestDelay.init(percentile:)),
                balancer: ReplicaBalancer(balancer, replicas: replicas)))
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
            client: Int32(client), clientAttempt: attempt, start: now, timerDue: -1, id: nextID,
            isPermanent: isPermanent, isRetry: isRetry, machine: freshMachine, work: WideSum(),
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
    /// copies as replicas went), drawn with `uniform`; returns the copy's slot, tag and replica,
    /// and whether another copy may follow it (its timer is then armed).
    func addCopy(
        to call: Int32, now: Int64, uniform: () -> Double
    ) -> (slot: Int32, tag: Int32, replica: Int, isFollowed: Bool) {
        let c = Int(call)
        let sent = calls[c].machine.sent
        let base = c * hedging.copies
        // Among the replicas this call has not used (at most `copies` of them are used, and none
        // is avoided once every replica has a copy).
        let replica =
            tracksHosts
            ? pickTrackingHosts(c, sent: sent, now: now, uniform: uniform)
            : state.pointee.balancer.pick(avoids: sent < replicas, uniform: uniform) { replica in
                (0..<sent).contains { Int(copies[Int(callCopies[base + $0])].replica) == replica }
            }
        advanceID()
        let copy = Copy(
            call: call, replica: Int32(replica), tag: nextID, number: Int32(sent + 1), sent: now, serviceStart: -1,
            isLive: true)
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
        calls[c].timerDue = -1
        let isFollowed = calls[c].machine.copySent()
        state.pointee.copiesSent += 1
        trace?.record(calls[c], .copySent(copy: sent + 1), now: now)
        return (slot, nextID, replica, isFollowed)
    }

    /// The next id or tag: run-unique while 2^32 calls and copies fit, never 0 (a released call's).
    private func advanceID() {
        nextID &+= 1
        if nextID == 0 { nextID = 1 }
    }

    /// Whether a copy's attempt is still the live copy in its slot.
    func isLive(_ copy: Int, tag: Int64) -> Bool { copies[copy].isLive && Int64(copies[copy].tag) == tag }

    func call(of copy: Int) -> Call { calls[Int(copies[copy].call)] }

    func serviceStarted(_ copy: Int, now: Int64) { copies[copy].serviceStart = now }

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
}
