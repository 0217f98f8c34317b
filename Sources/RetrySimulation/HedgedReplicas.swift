import BackoffPolicies
import EventSimulation

/// A capacity server's replicas behind a uniform random balancer, with the clients' hedge in front
/// (`simulate --replicas K --hedge SPEC`): one server to the clients, made of `Replica` servers.
///
/// ```
/// client attempt ─▶ call ─▶ copy 1 ─▶ replica a      (a drawn uniformly)
///                      └──▶ copy 2 ─▶ replica b ≠ a  (after the delay, unless an answer came)
///        ◀─ first success, a permanent error, or the last copy's failure
/// ```
///
/// As gRPC's A6 `hedgingPolicy` has it: copy k goes `delay` after copy k − 1 unless the call was
/// answered; a failure (a full queue's rejection) sends the next copy at once; a permanent error
/// answers the call and cancels every other copy; the first success answers it and, with
/// `cancelsLosers`, cancels the others (a queued copy leaves its queue, one in service frees its
/// worker at once). Without cancellation the losers run to their end, as wasted work. A hedge is
/// the client's behaviour: it is modelled here, in front of the replicas, so that the clients'
/// retry policy sees one attempt per hedged call, as a gRPC call is one call to its caller.
///
/// - Copies after the first are retry traffic in the load timeline (load the policy added).
/// - The client's timeout is armed once per attempt; a call whose client stopped waiting sends no
///   more copies, and its copies in flight run to their end (wasted work).
/// - A copy draws its replica and its service time from its client's stream.
/// - With a percentile (Finagle's `BackupRequestFilter`), the delay is ``BackupRequestDelay``'s,
///   read as the call starts; the backup goes only if its budget grants it; the first copy to end
///   answers the call unless it failed with the backup out (then the backup answers), and a
///   failure sends nothing at once.
/// - With a per-try timeout (Envoy's `hedge_on_per_try_timeout`), the timer is the newest copy's
///   timeout: if the shared limits grant a hedge, the next copy goes after a retry backoff drawn
///   from the client's stream (the timer then counts that down); a failure of the newest copy also
///   backs off and sends the next, and one of a copy hedged already is dropped while another copy
///   is in flight or due.
/// - With a cancellation delay, a loser's withdrawal reaches its replica that long after the answer.
/// - The hedge's events are its timer and a delayed withdrawal (``HedgedCalls/Event``); the
///   replicas', numbered after them, name a copy's slot, and an event of a copy withdrawn since is
///   dropped here (its replica let the work go already).
struct HedgedReplicas<Replica: WithdrawableServer>: StackableServer {
    /// A hedge's copies are server attempts of their client's.
    static var makesAttemptsOfItsOwn: Bool { true }

    /// The hedge's own events, then its replicas'.
    static var eventKinds: UInt32 { UInt32(HedgedCalls.Event.allCases.count) + Replica.eventKinds }

    private let store: ReplicaStore<Replica>
    private let calls: HedgedCalls
    private var replicas: UnsafeMutablePointer<Replica> { store.replicas }

    init(scenario: Scenario, seed: UInt64) {
        let faulty = scenario.faultyHosts
        store = ReplicaStore(
            (0..<scenario.replicas).map { host in
                Replica(scenario.server, fault: host < faulty?.count ?? 0 ? faulty?.fault : nil)
            })
        calls = HedgedCalls(
            hedging: scenario.activeHedge ?? .single, replicas: scenario.replicas, balancer: scenario.balancer,
            faultyHosts: faulty?.count ?? 0, hostPredicate: scenario.retryHostPredicate,
            outlierDetection: scenario.outlierDetection,
            batchesCalls: scenario.usesBatchMeans, countsHostLoads: scenario.countsHostLoads)
    }

    mutating func receive<Decisions: HedgeDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
    ) {
        decisions.armTimeout(client, attempt: attempt)
        guard
            let call = calls.open(
                client: client, attempt: attempt, isRetry: isRetry, isPermanent: decisions.isPermanent(client),
                now: decisions.now.nanoseconds)
        else { return }
        withUnsafeMutablePointer(to: &decisions) { outer in
            var link = ReplicaDecisions(outer: outer, calls: calls)
            sendCopy(call, &link)
            carryOutPending(&link)
        }
    }

    mutating func handle<Decisions: HedgeDecisions>(
        _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions
    ) {
        withUnsafeMutablePointer(to: &decisions) { outer in
            var link = ReplicaDecisions(outer: outer, calls: calls)
            switch HedgedCalls.Event(rawValue: number) {
            case .withdraw:
                withdraw(Int32(event.client), tag: Int32(truncatingIfNeeded: event.value), &link)
            case .timer:
                let call = Int32(event.client)
                guard calls.takeTimer(call, id: event.value, now: link.now.nanoseconds) else { return }
                fire(call, &link)
            case nil:
                guard calls.isLive(event.client, tag: Int64(event.value)) else { return }  // withdrawn since
                let replica = Int(calls.copies[event.client].replica)
                replicas[replica].handle(event, number: number - ReplicaDecisions<Decisions>.eventBase, &link)
            }
            carryOutPending(&link)
        }
    }

    func finish(_ counters: inout ScenarioCounters) throws(SimulationError) {
        guard !calls.overflowed else { throw .tooManyCalls(limit: HedgedCalls.maximumSlots) }
        counters.hedge = calls.tally
    }

    /// The call's timer fires (or its delay of zero ends): its machine decides what follows.
    private mutating func fire<Outer: HedgeDecisions>(_ call: Int32, _ link: inout ReplicaDecisions<Outer>) {
        let state = calls.calls[Int(call)]
        let awaits = link.driver { $0.isAwaiting(Int(state.client), attempt: state.clientAttempt) }
        perform(calls.timerFired(call, clientAwaits: awaits), call, &link)
    }

    /// Carries out what a call's machine decided outside a replica's call (its timer, the limits'
    /// answer to the timer's question). A copy after the first asks the hedge's own budget
    /// (Finagle's) and then the shared limits; a refused one is not sent, and the call goes on with
    /// its copies in flight.
    private mutating func perform<Outer: HedgeDecisions>(
        _ action: HedgedCallMachine.Action, _ call: Int32, _ link: inout ReplicaDecisions<Outer>
    ) {
        switch action {
        case .none:
            return
        case .askLimits:
            let client = Int(calls.calls[Int(call)].client)
            let now = link.now.nanoseconds
            let granted = calls.admitsNextCopy(now: now) && link.outer.pointee.grantsHedge(for: client)
            perform(calls.limitsAnswered(call, granted: granted, now: now), call, &link)
        case .send:
            sendCopy(call, &link)
        case .backOff:
            backOff(call, &link)
        case .answer:
            preconditionFailure("a call is answered only as a copy ends")
        }
    }

    /// The call sends a copy to a replica none of its copies used, and arms the timer of the next
    /// (a delay of zero fires it once the replica returns; one past virtual time's horizon never).
    private mutating func sendCopy<Outer: HedgeDecisions>(_ call: Int32, _ link: inout ReplicaDecisions<Outer>) {
        let state = calls.calls[Int(call)]
        let now = link.now.nanoseconds
        var random = link.driver { $0.random(for: Int(state.client)) }
        let copy = calls.addCopy(to: call, now: now) { random.nextUniform() }
        link.outer.pointee.copySent(for: Int(state.client))
        if copy.isFollowed, let delay = calls.nextCopyDelay(now: now) {
            if delay == 0 {
                calls.pending.append(.fire(call: call, id: state.id))
            } else if delay <= VirtualTime.horizon.nanoseconds - now {
                calls.armTimer(call, now: now, delay: delay)
                link.outer.pointee.schedule(
                    HedgedCalls.Event.timer.rawValue, for: Int(call), value: Int64(state.id), after: delay)
            }
        }
        replicas[copy.replica].receive(
            client: Int(copy.slot), attempt: Int64(copy.tag), isRetry: state.isRetry || state.machine.sent > 0,
            &link)
    }

    /// The call, granted its next copy, draws its retry backoff (Envoy's) and arms the timer for
    /// it; a wait of zero fires it at once.
    private mutating func backOff<Outer: HedgeDecisions>(_ call: Int32, _ link: inout ReplicaDecisions<Outer>) {
        let state = calls.calls[Int(call)]
        let now = link.now.nanoseconds
        var random = link.driver { $0.random(for: Int(state.client)) }
        guard let wait = calls.drawBackoff(call, using: &random) else {
            preconditionFailure("a call draws one backoff per copy after its first, within its policy's attempts")
        }
        if wait == 0 {
            calls.trace?.record(calls.calls[Int(call)], .timerArmed(delay: .zero), now: now)
            fire(call, &link)
        } else if wait <= VirtualTime.horizon.nanoseconds - now {
            calls.armTimer(call, now: now, delay: wait)
            link.outer.pointee.schedule(
                HedgedCalls.Event.timer.rawValue, for: Int(call), value: Int64(state.id), after: wait)
        }
    }

    /// Carries out what the calls queued while a replica was being called: next copies, timers of
    /// zero delay, backoffs, and the withdrawal of losing copies (each may queue more).
    private mutating func carryOutPending<Outer: HedgeDecisions>(_ link: inout ReplicaDecisions<Outer>) {
        while let action = calls.popPending() {
            switch action {
            case .send(let call, let id):
                let state = calls.calls[Int(call)]
                guard state.id == id, state.machine.wantsCopy else { continue }
                if link.driver({ $0.isAwaiting(Int(state.client), attempt: state.clientAttempt) }) {
                    sendCopy(call, &link)
                } else {
                    calls.abandon(call)
                }
            case .fire(let call, let id):
                let state = calls.calls[Int(call)]
                guard state.id == id, state.machine.wantsCopy else { continue }
                fire(call, &link)
            case .backoff(let call, let id):
                let state = calls.calls[Int(call)]
                guard state.id == id, state.machine.wantsCopy else { continue }
                backOff(call, &link)
            case .withdraw(let copy, let tag):
                let delay = calls.hedging.cancellationDelay.wholeNanoseconds
                if delay == 0 {
                    withdraw(copy, tag: tag, &link)
                } else if delay <= VirtualTime.horizon.nanoseconds - link.now.nanoseconds {
                    // The cancellation reaches the replica later (one past the horizon never does).
                    link.outer.pointee.schedule(
                        HedgedCalls.Event.withdraw.rawValue, for: Int(copy), value: Int64(tag), after: delay)
                }
            }
        }
    }

    /// The copy in `copy`'s slot, if it is still the live copy `tag`, leaves its replica now.
    private mutating func withdraw<Outer: HedgeDecisions>(
        _ copy: Int32, tag: Int32, _ link: inout ReplicaDecisions<Outer>
    ) {
        guard let (replica, inService) = calls.withdraw(Int(copy), tag: tag, now: link.now.nanoseconds) else { return }
        replicas[replica].withdraw(client: Int(copy), attempt: Int64(tag), inService: inService, &link)
    }
}

/// The replicas in memory of their own: one is called in place while the answer of another is
/// being carried out, which an array stored in the server would refuse (exclusive access).
private final class ReplicaStore<Replica> {
    let replicas: UnsafeMutablePointer<Replica>
    private let count: Int

    init(_ hosts: [Replica]) {
        count = hosts.count
        replicas = .allocate(capacity: count)
        _ = UnsafeMutableBufferPointer(start: replicas, count: count).initialize(from: hosts)
    }

    deinit {
        replicas.deinitialize(count: count)
        replicas.deallocate()
    }
}
