import BackoffPolicies
import EventSimulation
import Stochastics

/// Answers going up the stack: a layer's call hears its attempt's answer, retries or answers its
/// caller, and ends; a cancellation goes down.
extension StackCalls {

    /// The call in `slot` is answered now about its attempt `tag` (a stale answer is dropped): it
    /// retries (an event) or ends, answering its caller.
    func answered<Outer: HedgeDecisions>(_ slot: Int, tag: Int64, _ answer: ClientAnswer, _ outer: inout Outer) {
        guard state.pointee.calls[slot].awaits(tag) else { return }
        let layer = Int(state.pointee.calls[slot].layer)
        let now = outer.now
        let wasRetry = state.pointee.calls[slot].retries.backoff.attempts > 1
        if gated[layer] && answer != .rejectedLocally {
            state.pointee.gates[layer]!.recordAnswer(
                success: answer == .success, throttled: false, client: slot, wasRetry: wasRetry, at: now.nanoseconds)
        }
        if answer == .timeout { state.pointee.tallies[layer].timeouts += 1 }
        var random = random(layer)
        var retries = state.pointee.calls[slot].retries
        var action = retries.answered(answer, at: now, policy: policies[layer], behaviour: behaviour, using: &random)
        state.pointee.calls[slot].retries = retries
        if case .retry(let next) = action {
            if next.nanoseconds >= state.pointee.calls[slot].deadline {
                // The retry could not finish before the deadline the call carries: it is not made.
                action = .endRequest(.gaveUp, next: nil, unsent: 0)
            } else if gated[layer],
                !state.pointee.gates[layer]!.grantsRetry(
                    client: slot, afterTimeout: answer == .timeout, at: now.nanoseconds)
            {
                action = state.pointee.calls[slot].retries.refuseRetry(at: now, behaviour: behaviour)
            }
        }
        switch action {
        case .retry(let next):
            // Until the retry begins the call waits for nothing: a late answer of the attempt that
            // timed out is work for nobody (orphaned), not the call's answer.
            state.pointee.calls[slot].isAwaiting = false
            if gated[layer] { state.pointee.gates[layer]!.retryScheduled(client: slot) }
            outer.schedule(Event.send.rawValue, for: slot, value: Int64(state.pointee.calls[slot].id), at: next)
        case .endRequest(let outcome, _, _):
            let reply: ClientAnswer
            var ending = LayerCallEnding.failed
            switch outcome {
            case .succeeded:
                state.pointee.tallies[layer].successes += 1
                reply = .success
                ending = .succeeded
            case .permanentFailure:
                state.pointee.tallies[layer].permanentFailures += 1
                reply = .permanentError
            case .gaveUp, .deniedByBudget, .rejectedLocally, .deadlineExceeded:
                state.pointee.tallies[layer].giveUps += 1
                reply = .failure(serverDelay: nil)
            }
            let (caller, callerAttempt) = (
                Int(state.pointee.calls[slot].caller), state.pointee.calls[slot].callerAttempt
            )
            end(slot, at: now.nanoseconds, ending)
            answerCaller(layer: layer, caller: caller, attempt: callerAttempt, reply, &outer)
        }
    }

    /// The call's deadline passed (its id `id`; a call already over is left alone): its work is
    /// cancelled. Its caller's deadline is the same or sooner, so nobody waits for its answer.
    func cancel<Outer: HedgeDecisions>(_ slot: Int, id: Int64, _ outer: inout Outer) {
        guard isCurrent(slot, id: id) else { return }
        let layer = Int(state.pointee.calls[slot].layer)
        state.pointee.tallies[layer].deadlineExceeded += 1
        let (caller, callerAttempt) = (Int(state.pointee.calls[slot].caller), state.pointee.calls[slot].callerAttempt)
        end(slot, at: outer.now.nanoseconds, .cancelled)
        answerCaller(layer: layer, caller: caller, attempt: callerAttempt, .failure(serverDelay: nil), &outer)
    }

    /// Whether the slot holds the call numbered `id` (modulo 2^32), still in progress.
    func isCurrent(_ slot: Int, id: Int64) -> Bool {
        state.pointee.calls[slot].isLive && state.pointee.calls[slot].id == UInt32(truncatingIfNeeded: id)
    }

    /// Whether the call's attempt in flight can still reach the client: the call waits for it, and
    /// every caller above waits for the attempt that led to it. (`outer` is `inout` only so that
    /// the driver is not copied.)
    func reachesClient<Outer: HedgeDecisions>(_ slot: Int, _ outer: inout Outer) -> Bool {
        guard !cancelsBelow else { return reachesClientThroughHedges(slot, &outer) }
        var call = state.pointee.calls[slot]
        guard call.isLive && call.isAwaiting else { return false }
        while call.layer > 0 {
            let parent = state.pointee.calls[Int(call.caller)]
            guard parent.awaits(call.callerAttempt) else { return false }
            call = parent
        }
        return outer.isAwaiting(Int(call.caller), attempt: call.callerAttempt)
    }

    /// ``reachesClient(_:_:)`` in a stack whose layers hedge: a copy's call reaches its hedge's
    /// caller while the hedge holds it, unanswered. (Apart, so a stack without pays nothing.)
    @inline(never)
    private func reachesClientThroughHedges<Outer: HedgeDecisions>(_ slot: Int, _ outer: inout Outer) -> Bool {
        var call = state.pointee.calls[slot]
        guard call.isLive && call.isAwaiting else { return false }
        while true {
            var (parentSlot, attempt) = (Int(call.caller), call.callerAttempt)
            if callerIsHedge(Int(call.layer)) {
                let (id, copy) = LayerHedge.split(attempt)
                let index = Int32(parentSlot)
                guard state.pointee.hedges.isCurrent(index, id: id) else { return false }
                let hedge = state.pointee.hedges[index]
                guard hedge.holds(copy: copy), !hedge.machine.isAnswered else { return false }
                (parentSlot, attempt) = (Int(hedge.owner), hedge.ownerAttempt)
                if hedge.layer < 0 { return outer.isAwaiting(parentSlot, attempt: attempt) }
            } else if call.layer == 0 {
                return outer.isAwaiting(parentSlot, attempt: attempt)
            }
            let parent = state.pointee.calls[parentSlot]
            guard parent.awaits(attempt) else { return false }
            call = parent
        }
    }

    /// Answers the caller of a call of `layer`, if it still waits for its attempt `attempt`.
    func answerCaller<Outer: HedgeDecisions>(
        layer: Int, caller: Int, attempt: Int64, _ answer: ClientAnswer, _ outer: inout Outer
    ) {
        if cancelsBelow && callerIsHedge(layer) {
            copyAnswered(Int32(caller), tag: attempt, answer, &outer)
        } else if layer == 0 {
            if outer.isAwaiting(caller, attempt: attempt) { outer.answer(caller, answer, recording: nil) }
        } else {
            answered(caller, tag: attempt, answer, &outer)
        }
    }

    /// The call in `slot` is over at `now`, as `ending` says: its layer's behaviours hear it, and
    /// the slot is free.
    func end(_ slot: Int, at now: Int64, _ ending: LayerCallEnding) {
        let layer = Int(state.pointee.calls[slot].layer)
        if gated[layer] { state.pointee.gates[layer]!.requestEnded(client: slot) }
        if behaves[layer] {
            state.pointee.inFlight[layer] -= 1
            let call = LayerCall(
                openedAt: state.pointee.calls[slot].openedAt,
                inFlightAtOpen: Int(state.pointee.calls[slot].inFlightAtOpen))
            for index in state.pointee.behaviours[layer].indices {
                state.pointee.behaviours[layer][index].closed(at: now, call, ending)
            }
        }
        state.pointee.calls[slot].isLive = false
        state.pointee.calls[slot].isAwaiting = false
        state.pointee.free.append(Int32(slot))
    }
}
