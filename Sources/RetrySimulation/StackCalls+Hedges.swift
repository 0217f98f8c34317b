import BackoffPolicies
import EventSimulation

/// The hedges of layers above the bottom (``LayerHedge``): each decides with its
/// ``HedgedCallMachine``, and what it decides to send goes as an event (``StackCalls/Event/hedgeSend``),
/// so nothing here calls below. Losing copies are cancelled down the stack (``cancelCall(_:at:)``).
extension StackCalls {

    /// The call in `slot` hedges the attempt it has just begun (`attempt`): the new hedge's index.
    /// The stack then sends its first copy (``copyGoes(_:_:)``).
    func openHedge(owner slot: Int, attempt: (tag: UInt32, isRetry: Bool, deadline: Int64)) -> Int32 {
        let call = state.pointee.calls[slot]
        let index = addHedge(
            layer: Int(call.layer), owner: slot, attempt: Int64(attempt.tag), session: call.session,
            deadline: attempt.deadline, retrying: attempt.isRetry, permanent: call.isPermanent)
        state.pointee.children[slot] = index
        return index
    }

    /// Client `client` hedges its attempt `attempt` into the top layer (`--hedge` with layers): the
    /// new hedge's index.
    func openClientHedge(client: Int, attempt: Int64, isRetry: Bool, deadline: Int64, permanent: Bool) -> Int32 {
        addHedge(
            layer: -1, owner: client, attempt: attempt, session: Int32(client), deadline: deadline, retrying: isRetry,
            permanent: permanent)
    }

    private func addHedge(
        layer: Int, owner: Int, attempt: Int64, session: Int32, deadline: Int64, retrying: Bool, permanent: Bool
    ) -> Int32 {
        let hedging = hedging(of: layer)
        var backoff: (policy: BackoffPolicy, state: BackoffState)?
        if case .perTryTimeout(_, let policy) = hedging.rule { backoff = (policy, BackoffState(policy: policy)) }
        return state.pointee.hedges.add(
            LayerHedge(
                machine: HedgedCallMachine(hedging), backoff: backoff, layer: Int16(layer), owner: Int32(owner),
                ownerAttempt: attempt, session: session, deadline: deadline, ownerRetrying: retrying,
                isPermanent: permanent, id: newID()))
    }

    /// The hedge of layer `layer` (-1: the clients').
    private func hedging(of layer: Int) -> Hedging { layer < 0 ? clientsHedge! : layers[layer].hedging! }

    /// The hedge at `index` sends a copy now (the machine counts it sent, in flight), and arms the
    /// timer of the next by its rule: the copy's number. Its call opens at once (the first copy)
    /// or at the ``Event/hedgeSend`` event due now (``takePendingCopy(_:id:_:)``), so that nothing
    /// called from an answer calls below, while the machine already knows the copy is on its way.
    func copyGoes<Outer: HedgeDecisions>(_ index: Int32, _ outer: inout Outer) -> Int {
        let followed = state.pointee.hedges[index].machine.copySent()
        state.pointee.hedges[index].copies.append(LayerHedge.pending)
        let hedge = state.pointee.hedges[index]
        let copy = hedge.copies.count
        let layer = Int(hedge.layer)
        if layer < 0 {
            outer.copySent(for: Int(hedge.owner))
            if copy > 1 { state.pointee.clientHedgeCopies += 1 }
        } else if copy > 1 {
            state.pointee.tallies[layer].hedgeCopies += 1
        }
        if followed, let delay = hedging(of: layer).rule.layerTimer {
            armTimer(index, after: delay.wholeNanoseconds, &outer)
        }
        return copy
    }

    /// What the call of copy `copy` of hedge `index` carries: its caller attempt (the hedge's id and
    /// the copy's number), whether it is retry traffic, its deadline.
    func copyCall(_ index: Int32, copy: Int) -> (callerAttempt: Int64, isRetry: Bool, deadline: Int64) {
        let hedge = state.pointee.hedges[index]
        return (LayerHedge.copyTag(id: hedge.id, copy: copy), hedge.ownerRetrying || copy > 1, hedge.deadline)
    }

    /// The copy numbered `copy` of hedge `index` (id `id`) opened its call in `slot` (`nil`: it
    /// was refused, and has answered already).
    func copyOpened(_ index: Int32, id: UInt32, copy: Int, slot: Int?) {
        guard state.pointee.hedges.isCurrent(index, id: id),
            state.pointee.hedges[index].copies[copy - 1] == LayerHedge.pending
        else { return }
        state.pointee.hedges[index].copies[copy - 1] = slot.map { Int32($0) } ?? LayerHedge.ended
    }

    /// The event of hedge `index` (id `id`) to open the call of a copy it sent: the earliest copy
    /// still waiting for its call, or `nil` when none is (withdrawn since, or the hedge over). A
    /// hedge whose caller stopped waiting meanwhile withdraws it: it is not opened.
    func takePendingCopy<Outer: HedgeDecisions>(_ index: Int32, id: Int64, _ outer: inout Outer) -> Int? {
        guard state.pointee.hedges.isCurrent(index, id: UInt32(truncatingIfNeeded: id)),
            let position = state.pointee.hedges[index].copies.firstIndex(of: LayerHedge.pending)
        else { return nil }
        guard ownerAwaits(index, &outer) else {
            withdraw(index, copy: position + 1, at: outer.now.nanoseconds)
            _ = state.pointee.hedges[index].machine.abandon()
            state.pointee.hedges.releaseIfFinished(index)
            return nil
        }
        return position + 1
    }

    /// The timer of hedge `index` fires (a stale one is dropped): its machine decides what follows.
    func hedgeTimerFired<Outer: HedgeDecisions>(_ index: Int32, id: Int64, _ outer: inout Outer) {
        let now = outer.now.nanoseconds
        guard state.pointee.hedges.isCurrent(index, id: UInt32(truncatingIfNeeded: id)),
            state.pointee.hedges[index].timerDue == now
        else { return }
        state.pointee.hedges[index].timerDue = -1
        let action = state.pointee.hedges[index].machine.timerFired(clientAwaits: ownerAwaits(index, &outer))
        // A timer never answers a hedge (HedgedCallMachine); were it to, the attempt would fail.
        perform(action, index, copy: 0, answer: .failure(serverDelay: nil), &outer)
        state.pointee.hedges.releaseIfFinished(index)
    }

    /// A copy's call answered its hedge (`tag`: the hedge's id and the copy's number; the answer of
    /// a copy the hedge no longer holds is dropped).
    func copyAnswered<Outer: HedgeDecisions>(_ index: Int32, tag: Int64, _ answer: ClientAnswer, _ outer: inout Outer) {
        let (id, copy) = LayerHedge.split(tag)
        guard state.pointee.hedges.isCurrent(index, id: id), state.pointee.hedges[index].holds(copy: copy) else {
            return
        }
        state.pointee.hedges[index].copies[copy - 1] = LayerHedge.ended
        let awaits = ownerAwaits(index, &outer)
        let outcome: HedgedCallMachine.CopyOutcome? =
            switch answer {
            case _ where !awaits: nil
            case .success: .success
            case .permanentError: .fatalFailure
            default: .failure
            }
        let action = state.pointee.hedges[index].machine.copyEnded(copy, outcome, clientAwaits: awaits)
        if outcome == .failure, !state.pointee.hedges[index].machine.isAnswered {
            // A failure that does not answer the attempt is a failed retry to the owner's limits.
            let hedge = state.pointee.hedges[index]
            if hedge.layer < 0 {
                outer.copyFailed(for: Int(hedge.owner))
            } else {
                copyFailed(Int(hedge.owner), at: outer.now.nanoseconds)
            }
        }
        perform(action, index, copy: copy, answer: answer, &outer)
        state.pointee.hedges.releaseIfFinished(index)
    }

    // MARK: Carrying out a hedge's decisions

    /// Whether the call (or client) that owns hedge `index` still waits for the attempt the hedge is.
    private func ownerAwaits<Outer: HedgeDecisions>(_ index: Int32, _ outer: inout Outer) -> Bool {
        let hedge = state.pointee.hedges[index]
        if hedge.layer < 0 { return outer.isAwaiting(Int(hedge.owner), attempt: hedge.ownerAttempt) }
        return state.pointee.calls[Int(hedge.owner)].awaits(hedge.ownerAttempt)
    }

    /// Carries out what hedge `index`'s machine decided; `copy` and `answer`: the copy that just
    /// ended and its answer (copy 0 and a failure when the timer fired).
    private func perform<Outer: HedgeDecisions>(
        _ action: HedgedCallMachine.Action, _ index: Int32, copy: Int, answer: ClientAnswer, _ outer: inout Outer
    ) {
        let now = outer.now.nanoseconds
        switch action {
        case .none:
            return
        case .askLimits:
            let hedge = state.pointee.hedges[index]
            let granted =
                hedge.layer < 0 ? outer.grantsHedge(for: Int(hedge.owner)) : grantsHedge(Int(hedge.owner), at: now)
            perform(
                state.pointee.hedges[index].machine.limitsAnswered(granted: granted), index, copy: copy,
                answer: answer, &outer)
        case .send:
            _ = copyGoes(index, &outer)
            outer.schedule(
                Event.hedgeSend.rawValue, for: Int(index), value: Int64(state.pointee.hedges[index].id),
                at: outer.now)
        case .backOff:
            let hedge = state.pointee.hedges[index]
            // Only Envoy's rule backs off, and it carries its backoff; the machine asks for one draw
            // per copy after the first, so the policy always has one (a wait of 0 otherwise).
            guard var backoff = hedge.backoff else { return }
            // A layer's draws come from its stream, the clients' from the client's.
            var random = hedge.layer < 0 ? outer.random(for: Int(hedge.owner)) : random(Int(hedge.layer))
            let wait = backoff.policy.nextWait(after: &backoff.state, elapsed: 0, using: &random) ?? 0
            state.pointee.hedges[index].backoff = backoff
            armTimer(index, after: wait, &outer)
        case .answer(let cancellingOthers):
            let hedge = state.pointee.hedges[index]
            if cancellingOthers {
                let delay = hedging(of: Int(hedge.layer)).cancellationDelay
                for position in hedge.copies.indices where position + 1 != copy && hedge.holds(copy: position + 1) {
                    let (other, slot) = (position + 1, Int(hedge.copies[position]))
                    if delay == .zero || slot < 0 {
                        // A copy whose call has yet to open (its event is due now) is withdrawn unopened.
                        withdraw(index, copy: other, at: now)
                    } else if delay.wholeNanoseconds <= VirtualTime.horizon.nanoseconds - now {
                        outer.schedule(
                            Event.cancelCopy.rawValue, for: slot, value: Int64(state.pointee.calls[slot].id),
                            after: delay.wholeNanoseconds)
                    }
                }
            }
            if hedge.layer < 0 {
                if outer.isAwaiting(Int(hedge.owner), attempt: hedge.ownerAttempt) {
                    outer.answer(Int(hedge.owner), answer, recording: nil)
                }
            } else {
                answered(Int(hedge.owner), tag: hedge.ownerAttempt, answer, &outer)
            }
        }
    }

    /// Arms hedge `index`'s timer `delay` nanoseconds from now (one past virtual time's horizon never fires).
    private func armTimer<Outer: HedgeDecisions>(_ index: Int32, after delay: Int64, _ outer: inout Outer) {
        let now = outer.now.nanoseconds
        guard delay <= VirtualTime.horizon.nanoseconds - now else { return }
        state.pointee.hedges[index].timerDue = now + delay
        outer.schedule(
            Event.hedgeTimer.rawValue, for: Int(index), value: Int64(state.pointee.hedges[index].id), after: delay)
    }
}

extension Hedging.Rule {
    /// When a layer's hedge arms its timer after a copy: the next copy's delay, or Envoy's per-try
    /// timeout; `nil` for Finagle's percentile, which a layer above the bottom does not take.
    fileprivate var layerTimer: Duration? {
        switch self {
        case .fixedDelay(let delay): delay
        case .perTryTimeout(let timeout, _): timeout
        case .percentile: nil
        }
    }
}
