import BackoffPolicies
import EventSimulation

/// Calls opening and beginning their attempts: a layer takes a request (or refuses it at once),
/// and a call's attempt begins when its layer's breaker lets it go.
extension StackCalls {
    /// The client whose request the caller of a new call of `layer` serves: a call's, or a hedge's.
    @inline(never)
    fileprivate func session(of caller: Int, layer: Int) -> Int32 {
        if callerIsHedge(layer) { return state.pointee.hedges[Int32(caller)].session }
        return layer == 0 ? Int32(caller) : state.pointee.calls[caller].session
    }

    /// The new call in `slot`, of `layer`, is its caller's attempt in flight below (a hedge keeps
    /// its copies itself).
    @inline(never)
    fileprivate func link(_ slot: Int, below caller: Int, layer: Int) {
        if layer > 0 && !callerIsHedge(layer) { state.pointee.children[caller] = Int32(slot) }
    }

    /// Layer `layer` takes a request from `caller` (its attempt `callerAttempt`) at `now`: the
    /// slot of its new call, or `nil` when one of its behaviours refuses it (a full
    /// ``ConcurrencyCap``: the request is refused, and the caller answered, at once).
    func open<Outer: HedgeDecisions>(
        layer: Int, caller: Int, callerAttempt: Int64, callerRetrying: Bool, deadline: Int64, permanent: Bool,
        _ outer: inout Outer
    ) -> Int? {
        state.pointee.tallies[layer].requests += 1
        let now = outer.now.nanoseconds
        let admitted = !behaves[layer] || state.pointee.behaviours[layer].allSatisfy { $0.admits(at: now) }
        guard admitted, !state.pointee.free.isEmpty || state.pointee.count < Self.maximumCalls else {
            state.pointee.overflowed = state.pointee.overflowed || admitted
            state.pointee.tallies[layer].rejections += 1
            answerCaller(layer: layer, caller: caller, attempt: callerAttempt, .failure(serverDelay: nil), &outer)
            return nil
        }
        var inFlight: Int32 = 0
        if behaves[layer] {
            state.pointee.inFlight[layer] += 1
            inFlight = state.pointee.inFlight[layer]
            for index in state.pointee.behaviours[layer].indices {
                state.pointee.behaviours[layer][index].opened(at: now)
            }
        }
        let call = ServiceCall(
            retries: SimulatedClient(policy: policies[layer]), deadline: deadline, callerAttempt: callerAttempt,
            openedAt: now, inFlightAtOpen: inFlight, id: newID(), caller: Int32(caller),
            session: cancelsBelow
                ? session(of: caller, layer: layer) : layer == 0 ? Int32(caller) : state.pointee.calls[caller].session,
            layer: Int16(layer), callerRetrying: callerRetrying, isPermanent: permanent)
        let slot: Int
        if let reused = state.pointee.free.popLast() {
            slot = Int(reused)
            state.pointee.calls[slot] = call
        } else {
            slot = state.pointee.count
            if slot == state.pointee.capacity {
                let grown = UnsafeMutablePointer<ServiceCall>.allocate(capacity: 2 * slot)
                grown.moveInitialize(from: state.pointee.calls, count: slot)
                state.pointee.calls.deallocate()
                (state.pointee.calls, state.pointee.capacity) = (grown, 2 * slot)
            }
            (state.pointee.calls + slot).initialize(to: call)
            state.pointee.count += 1
            if cancelsBelow { state.pointee.children.append(-1) }
            for index in state.pointee.gates.indices {
                state.pointee.gates[index]?.addClients(upTo: state.pointee.count)
            }
        }
        if gated[layer] { state.pointee.gates[layer]!.requestStarted(at: now) }
        if cancelsBelow { link(slot, below: caller, layer: layer) }
        if deadline < .max {
            outer.schedule(
                Event.callDeadline.rawValue, for: slot, value: Int64(call.id), at: VirtualTime(nanoseconds: deadline))
        }
        return slot
    }

    /// The call in `slot` begins an attempt now, if its layer's breaker lets it go: the attempt's
    /// tag, or `nil` when the breaker refused it (the call has been answered). Arms the per-try
    /// timeout, and returns the deadline the work below carries.
    func beginAttempt<Outer: HedgeDecisions>(_ slot: Int, _ outer: inout Outer) -> (
        tag: UInt32, isRetry: Bool, deadline: Int64
    )? {
        let layer = Int(state.pointee.calls[slot].layer)
        let now = outer.now
        if gated[layer] {
            var random = random(layer)
            guard state.pointee.gates[layer]!.admitsAttempt(at: now.nanoseconds, using: &random) else {
                let tag = newID()
                state.pointee.calls[slot].attempt = tag
                state.pointee.calls[slot].isAwaiting = true
                answered(slot, tag: Int64(tag), .rejectedLocally, &outer)
                return nil
            }
        }
        let tag = newID()
        let permanent = state.pointee.calls[slot].isPermanent
        // The call's state is worked on in a local (plain values, no references): the policy is
        // then read in place, where a write into the table beside it would make the compiler copy it.
        var retries = state.pointee.calls[slot].retries
        _ = retries.beginAttempt(at: now, policy: policies[layer]) { permanent }
        state.pointee.calls[slot].retries = retries
        state.pointee.calls[slot].attempt = tag
        state.pointee.calls[slot].isAwaiting = true
        state.pointee.tallies[layer].attempts += 1
        var deadline = state.pointee.calls[slot].deadline
        let timeout = timeouts[layer]
        if timeout < .max {
            let expiry = now.nanoseconds + timeout  // both at most the horizon, 2^62
            if expiry < deadline {
                outer.schedule(
                    Event.perTryTimeout.rawValue, for: slot, value: Int64(tag), at: VirtualTime(nanoseconds: expiry))
                if propagatesDeadline { deadline = expiry }
            }
        }
        return (tag, state.pointee.calls[slot].isRetry, deadline)
    }
}
