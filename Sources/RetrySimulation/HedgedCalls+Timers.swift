import BackoffPolicies

/// A hedged call's timer: armed for its next copy, a per-try timeout or a retry backoff, and what
/// its machine decides when it fires.
extension HedgedCalls {
    /// The call's timer is armed to fire `delay` nanoseconds from `now`.
    func armTimer(_ call: Int32, now: Int64, delay: Int64) {
        calls[Int(call)].timerDue = now + delay
        trace?.record(calls[Int(call)], .timerArmed(delay: .nanoseconds(delay)), now: now)
    }

    /// Whether the call's timer event due `now` (of call `id`) is its live timer; it is then spent.
    func takeTimer(_ call: Int32, id: Int32, now: Int64) -> Bool {
        let c = Int(call)
        guard calls[c].id == id, calls[c].timerDue == now, calls[c].machine.timer != .idle else { return false }
        calls[c].timerDue = -1
        return true
    }

    /// What the call's machine decides as its timer fires (a delay of zero: at once).
    func timerFired(_ call: Int32, clientAwaits: Bool) -> HedgedCallMachine.Action {
        defer { releaseIfDone(Int(call)) }
        return calls[Int(call)].machine.timerFired(clientAwaits: clientAwaits)
    }

    /// Draws the call's retry backoff before its next copy, in nanoseconds (`nil` once the copies
    /// are spent).
    func drawBackoff<Random: UniformSource>(_ call: Int32, using random: inout Random) -> Int64? {
        guard let policy = perTryBackoff, var backoff = calls[Int(call)].backoff else { return nil }
        defer { calls[Int(call)].backoff = backoff }
        return policy.nextWait(after: &backoff, elapsed: 0, using: &random)
    }
}

extension Hedging.Rule {
    /// The percentile of Finagle's rule, `nil` for the others.
    var percentile: Double? {
        if case .percentile(let percentile) = self { percentile } else { nil }
    }
}
