import EventSimulation

/// Service layers in front of a server model (`simulate --layer`), as one server to the clients:
/// it answers a client's attempt by running a request through its layers, each retrying under its
/// own policy against the layer below, the bottom layer's attempts reaching the `Bottom` server.
///
/// ```
/// client attempt ─▶ layer 0 call ─▶ attempt ─▶ layer 1 call ─▶ ... ─▶ bottom call ─▶ attempt ─▶ server
///        ◀─ answer ◀─ (retries, per-try timeouts, concurrency, budget, breaker at each layer) ◀─ answer
/// ```
///
/// - The server sees the bottom layer's calls as its clients (``StackDecisions``); the load it
///   counts is the run's load, and an attempt is retry traffic when anything above it retried.
/// - A per-try timeout makes a layer stop waiting: the work below goes on, orphaned. With deadline
///   propagation each sub-request carries the sooner of the request's deadline and its attempt's
///   timeout: a layer starts no retry at or after it, and the work below is cancelled when it
///   passes (a queued attempt is dropped; one being served is finished).
/// - A client's request deadline is the stack's to enforce: when it passes with an attempt in
///   flight, the client's request ends (`deadline_exceeded`).
/// - The stack numbers its own events first (``StackCalls/Event``) and its bottom server's after
///   them, which go to that server. Every layer draws from its own stream, the server from one more (``StackCalls``).
/// - The bottom server may be hedged replicas (`HedgedReplicas`): the bottom layer's attempts are
///   then its calls, hedged under the bottom layer's hedge, each copy after the first a retry to
///   the bottom layer's limits.
/// - A layer above the bottom, or the clients (`--hedge`), may hedge their attempts as calls of
///   the layer below (``LayerHedge``, ``StackCalls`` + Hedges): a losing copy's call is cancelled
///   down the stack, and a bottom attempt still queued is dropped.
struct ServiceStack<Bottom: StackableServer>: SimulatedServer {
    /// The layers retry: a session's server attempts are more than its client's.
    static var makesAttemptsOfItsOwn: Bool { true }

    /// The stack's own events, then its bottom server's.
    static var eventKinds: UInt32 { UInt32(StackCalls.Event.allCases.count) + Bottom.eventKinds }

    private var bottom: Bottom
    private let calls: StackCalls

    init(scenario: Scenario, seed: UInt64) {
        precondition(!scenario.layers.isEmpty, "a stack has at least one layer")
        bottom = Bottom(scenario: scenario, seed: seed)
        calls = StackCalls(scenario: scenario, seed: seed)
    }

    mutating func receive<Decisions: DriverDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
    ) {
        calls.clientAttempts += 1
        decisions.armTimeout(client, attempt: attempt)
        var deadline = Int64.max
        if let limit = calls.deadline {
            deadline = decisions.requestStart(of: client).nanoseconds + limit  // both at most 2^62
            decisions.schedule(
                StackCalls.Event.requestDeadline.rawValue, for: client, value: attempt,
                at: VirtualTime(nanoseconds: max(deadline, decisions.now.nanoseconds)))
        }
        let permanent = decisions.isPermanent(client)
        let carried = calls.propagatesDeadline ? deadline : .max
        withUnsafeMutablePointer(to: &decisions) { outer in
            var link = StackDecisions(outer: outer, calls: calls)
            if calls.callerIsHedge(0) {
                hedge(
                    client: client, attempt: attempt, isRetry: isRetry, deadline: carried, permanent: permanent, &link)
                return
            }
            open(
                layer: 0, caller: client, callerAttempt: attempt, callerRetrying: isRetry, deadline: carried,
                permanent: permanent, &link)
        }
    }

    mutating func handle<Decisions: DriverDecisions>(
        _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions
    ) {
        withUnsafeMutablePointer(to: &decisions) { outer in
            var link = StackDecisions(outer: outer, calls: calls)
            guard let stackEvent = StackCalls.Event(rawValue: number) else {
                bottom.handle(event, number: number - StackDecisions<Decisions>.eventBase, &link)
                return
            }
            let (slot, value) = (event.client, Int64(event.value))
            switch stackEvent {
            case .send:
                if calls.isCurrent(slot, id: value) { send(slot, &link) }
            case .perTryTimeout:
                calls.answered(slot, tag: value, .timeout, &outer.pointee)
            case .callDeadline:
                calls.cancel(slot, id: value, &outer.pointee)
            case .requestDeadline:
                // `slot` is a client here.
                if outer.pointee.isAwaiting(slot, attempt: value) {
                    outer.pointee.answer(slot, .deadlineExceeded, recording: nil)
                }
            case .hedgeTimer:
                // `slot` is a hedge's index in the next three.
                calls.hedgeTimerFired(Int32(slot), id: value, &outer.pointee)
            case .hedgeSend:
                if let copy = calls.takePendingCopy(Int32(slot), id: value, &outer.pointee) {
                    openCopy(copy, of: Int32(slot), &link)
                }
            case .cancelCopy:
                calls.cancelCopy(slot, id: value, &outer.pointee)
            }
        }
    }

    func finish(_ counters: inout ScenarioCounters) throws(SimulationError) {
        guard !calls.overflowed else { throw .tooManyCalls(limit: StackCalls.maximumCalls) }
        try bottom.finish(&counters)
        counters.clientAttempts = calls.clientAttempts
        counters.orphanedAttempts = calls.orphanedAttempts
        counters.layers = calls.tallies
        counters.clientHedgeCopies = calls.state.pointee.clientHedgeCopies
        if let hedge = counters.hedge, calls.layers.last?.hedging != nil {
            // The bottom layer's hedge is the replicas' (HedgedReplicas): its copies after the first.
            counters.layers[calls.bottomLayer].hedgeCopies = hedge.copies - hedge.requests
        }
    }

    /// Layer `layer` takes a request and sends its first attempt down: the call's slot, `nil` when
    /// the layer refused it (its caller is answered). (The call may be over when this returns.)
    @discardableResult
    private mutating func open<Outer: HedgeDecisions>(
        layer: Int, caller: Int, callerAttempt: Int64, callerRetrying: Bool, deadline: Int64, permanent: Bool,
        _ link: inout StackDecisions<Outer>
    ) -> Int? {
        guard
            let slot = calls.open(
                layer: layer, caller: caller, callerAttempt: callerAttempt, callerRetrying: callerRetrying,
                deadline: deadline, permanent: permanent, &link.outer.pointee)
        else { return nil }
        send(slot, &link)
        return slot
    }

    /// The call in `slot` makes an attempt: to the layer below, or to the server. (Whatever answers
    /// it at once runs up the stack before this returns; the call is not touched after.)
    private mutating func send<Outer: HedgeDecisions>(_ slot: Int, _ link: inout StackDecisions<Outer>) {
        guard let attempt = calls.beginAttempt(slot, &link.outer.pointee) else { return }
        let layer = Int(calls[slot].layer)
        if layer == calls.bottomLayer {
            bottom.receive(client: slot, attempt: Int64(attempt.tag), isRetry: attempt.isRetry, &link)
        } else if calls.hedgesAttempts(layer) {
            sendCopy(calls.openHedge(owner: slot, attempt: attempt), &link)
        } else {
            open(
                layer: layer + 1, caller: slot, callerAttempt: Int64(attempt.tag), callerRetrying: attempt.isRetry,
                deadline: attempt.deadline, permanent: calls[slot].isPermanent, &link)
        }
    }

    /// The client hedges its attempt into the top layer (`--hedge` with layers). Out of line: a
    /// stack without the clients' hedge pays nothing for it.
    @inline(never)
    private mutating func hedge<Outer: HedgeDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, deadline: Int64, permanent: Bool,
        _ link: inout StackDecisions<Outer>
    ) {
        let index = calls.openClientHedge(
            client: client, attempt: attempt, isRetry: isRetry, deadline: deadline, permanent: permanent)
        sendCopy(index, &link)
    }

    /// Hedge `index` sends a copy (its first): a call of the layer below its layer (the top layer,
    /// for a client's).
    private mutating func sendCopy<Outer: HedgeDecisions>(_ index: Int32, _ link: inout StackDecisions<Outer>) {
        openCopy(calls.copyGoes(index, &link.outer.pointee), of: index, &link)
    }

    /// The call of copy `copy` of hedge `index`, sent already, opens.
    private mutating func openCopy<Outer: HedgeDecisions>(
        _ copy: Int, of index: Int32, _ link: inout StackDecisions<Outer>
    ) {
        let hedge = calls.state.pointee.hedges[index]
        let call = calls.copyCall(index, copy: copy)
        let slot = open(
            layer: Int(hedge.layer) + 1, caller: Int(index), callerAttempt: call.callerAttempt,
            callerRetrying: call.isRetry, deadline: call.deadline, permanent: hedge.isPermanent, &link)
        calls.copyOpened(index, id: hedge.id, copy: copy, slot: slot)
    }
}
