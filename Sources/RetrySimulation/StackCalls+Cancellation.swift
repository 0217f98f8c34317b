import EventSimulation

/// Cancellation down a stack: a hedge's losing copy is withdrawn, its call cancelled, and every
/// call below it in turn; a bottom attempt the server still holds queued is dropped.
extension StackCalls {
    /// The event of a losing copy's delayed cancellation: the call in `slot`, if it is still the
    /// call `id` and its hedge's copy, is cancelled now.
    func cancelCopy<Outer: HedgeDecisions>(_ slot: Int, id: Int64, _ outer: inout Outer) {
        guard isCurrent(slot, id: id) else { return }
        let call = state.pointee.calls[slot]
        let (hedgeID, copy) = LayerHedge.split(call.callerAttempt)
        let index = call.caller
        guard state.pointee.hedges.isCurrent(index, id: hedgeID), state.pointee.hedges[index].holds(copy: copy) else {
            return
        }
        withdraw(index, copy: copy, at: outer.now.nanoseconds)
        state.pointee.hedges.releaseIfFinished(index)
    }

    /// The call in `slot` is cancelled from above at `now`: nobody waits for its answer, and the
    /// work it has in flight below is cancelled in turn (a bottom attempt the server holds is
    /// dropped if still queued; one in service is finished, wasted).
    func cancelCall(_ slot: Int, at now: Int64) {
        let call = state.pointee.calls[slot]
        guard call.isLive else { return }
        let layer = Int(call.layer)
        state.pointee.tallies[layer].cancelled += 1
        if call.isAwaiting {
            if layer == bottomLayer {
                state.pointee.cancelledAttempts.insert(call.attempt)
            } else if hedgesAttempts(layer) {
                let index = state.pointee.children[slot]
                if state.pointee.hedges.isLive(index), state.pointee.hedges[index].layer == Int16(layer),
                    state.pointee.hedges[index].owner == Int32(slot),
                    state.pointee.hedges[index].ownerAttempt == Int64(call.attempt)
                {
                    for position in state.pointee.hedges[index].copies.indices
                    where state.pointee.hedges[index].holds(copy: position + 1) {
                        withdraw(index, copy: position + 1, at: now)
                    }
                    _ = state.pointee.hedges[index].machine.abandon()
                    state.pointee.hedges.releaseIfFinished(index)
                }
            } else {
                let child = Int(state.pointee.children[slot])
                if child >= 0, state.pointee.calls[child].isLive, state.pointee.calls[child].caller == Int32(slot),
                    state.pointee.calls[child].callerAttempt == Int64(call.attempt),
                    Int(state.pointee.calls[child].layer) == layer + 1
                {
                    cancelCall(child, at: now)
                }
            }
        }
        end(slot, at: now, .cancelled)
    }

    /// Whether the server's queued attempt `attempt` was cancelled from above (it is then
    /// forgotten: the server drops it).
    func takeCancelled(_ attempt: Int64) -> Bool {
        guard !state.pointee.cancelledAttempts.isEmpty else { return false }
        return state.pointee.cancelledAttempts.remove(UInt32(truncatingIfNeeded: attempt)) != nil
    }

    /// Copy `copy` of hedge `index` is withdrawn: its call is cancelled down the stack.
    func withdraw(_ index: Int32, copy: Int, at now: Int64) {
        let slot = Int(state.pointee.hedges[index].copies[copy - 1])
        state.pointee.hedges[index].copies[copy - 1] = LayerHedge.ended
        state.pointee.hedges[index].machine.copyWithdrawn()
        if slot >= 0 { cancelCall(slot, at: now) }
    }
}
