import BackoffPolicies

/// Whether and when a hedged call's next copy goes: its delay, Finagle's backup budget, and the
/// shared limits' answer.
extension HedgedCalls {
    /// What the call's machine decides as the limits answer; a refusal is counted.
    func limitsAnswered(_ call: Int32, granted: Bool, now: Int64) -> HedgedCallMachine.Action {
        if !granted {
            refused += 1
            trace?.record(calls[Int(call)], .copyRefused(copy: calls[Int(call)].machine.sent + 1), now: now)
        }
        return calls[Int(call)].machine.limitsAnswered(granted: granted)
    }

    /// When the next copy of a call that just sent one is due, in nanoseconds after it (`nil`:
    /// never): the hedge's delay; with a per-try timeout, the timeout (the copy then waits a
    /// backoff); or, for a percentile hedge, Finagle's delay as the call starts (asked once per
    /// call, as its first copy goes: the call's request is deposited in the budget).
    func nextCopyDelay(now: Int64) -> Int64? {
        copySpacing ?? backup!.callStarted(at: now)
    }

    /// Whether a copy after the first may go now: always for a fixed delay; for a percentile
    /// hedge, when Finagle's backup budget grants it (and it then takes a token).
    func admitsNextCopy(now: Int64) -> Bool {
        guard backup != nil else { return true }
        return backup!.admitsBackup(at: now)
    }

    /// A percentile hedge records the latency of a copy that succeeded or was superseded.
    func recordLatency(of copy: Int, now: Int64) {
        guard backup != nil else { return }
        backup!.record(start: copies[copy].sent, now: now)
    }
}
