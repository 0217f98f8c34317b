import BackoffPolicies

/// How a hedged call's copies end (served, rejected, withdrawn) and what the call's machine
/// decides then: the answer to its client, a next copy, the losers' withdrawal.
extension HedgedCalls {
    /// The copy's work ended now (its service done, or a rejection before it began), with `answer`
    /// when its call still waits for it; returns the call's answer to its client when this settles
    /// it, and queues what the call does next (its next copy, the losers' withdrawal). A next copy
    /// asked for goes only if `mayHedge` (the shared limits) grants it; otherwise the call waits
    /// for its copies in flight, or answers with the failure when none is left.
    func copyEnded(
        _ copy: Int, answer: ClientAnswer?, now: Int64, clientAwaits: Bool, mayHedge: () -> Bool
    ) -> ClientAnswer? {
        let call = copies[copy].call
        let c = Int(call)
        // A success; or a loser served to its end (its answer, a success, goes nowhere).
        let served = copies[copy].serviceStart >= 0
        if answer == .success || (answer == nil && served && !calls[c].isPermanent) {
            recordLatency(of: copy, now: now)
        }
        let number = Int(copies[copy].number)
        if tracksHosts, let answer { hostAnswered(Int(copies[copy].replica), answer, now: now) }
        end(copy, now: now)
        let outcome = answer.map(HedgedCallMachine.CopyOutcome.init)
        if let outcome, !calls[c].machine.isAnswered {
            trace?.record(calls[c], .copyEnded(copy: number, outcome: outcome), now: now)
        }
        var action = calls[c].machine.copyEnded(number, outcome, clientAwaits: clientAwaits)
        if action == .askLimits {
            action = limitsAnswered(call, granted: mayHedge(), now: now)
        }
        switch action {
        case .none, .askLimits:
            releaseIfDone(c)
            return nil
        case .send:
            pending.append(.send(call: call, id: calls[c].id))
            return nil
        case .backOff:
            pending.append(.backoff(call: call, id: calls[c].id))
            return nil
        case .answer(let cancellingOthers):
            if cancellingOthers { withdrawAll(of: c, now: now) }
            trace?.record(
                calls[c], .answered(copy: number, outcome: outcome!, sent: calls[c].machine.sent), now: now)
            responses.append(Double(now - calls[c].start) / 1e9)
            releaseIfDone(c)
            return answer
        }
    }

    /// The copy in `slot` is withdrawn now, if it is still the live copy `tag`: returns its
    /// replica and whether it was in service, for the replica to let it go.
    func withdraw(_ slot: Int, tag: Int32, now: Int64) -> (replica: Int, inService: Bool)? {
        guard copies[slot].isLive, copies[slot].tag == tag else { return nil }
        let inService = copies[slot].serviceStart >= 0
        countWithdrawal()
        let replica = Int(copies[slot].replica)
        let c = Int(copies[slot].call)
        end(slot, now: now)
        calls[c].machine.copyWithdrawn()
        releaseIfDone(c)
        return (replica, inService)
    }

    /// The call's client stopped waiting before any answer: it sends no more copies, and ends
    /// once its copies do.
    func abandon(_ call: Int32) {
        _ = calls[Int(call)].machine.abandon()
        releaseIfDone(Int(call))
    }

    /// Cancels the call's live copies now. A percentile hedge records each as superseded at once, as
    /// Finagle's client does when it interrupts it (only a winner's success withdraws with one).
    private func withdrawAll(of c: Int, now: Int64) {
        for k in 0..<calls[c].machine.sent {
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
            addWork(busy)
            calls[c].work.add(low: busy)
            if tracksHosts { hostWorked(Int(copies[copy].replica), busy) }
        }
        copies[copy].isLive = false
        freeCopies.append(Int32(copy))
        copyLeftReplica(Int(copies[copy].replica))
    }
}

extension HedgedCallMachine.CopyOutcome {
    /// A replica's answer to a copy: a success, a permanent error (the client's own, fatal to the
    /// call), or else a failure (a replica answers a full queue's rejection so; the others are
    /// the client's own and non-fatal).
    init(_ answer: ClientAnswer) {
        switch answer {
        case .success: self = .success
        case .permanentError: self = .fatalFailure
        case .failure, .timeout, .rejectedLocally, .deadlineExceeded: self = .failure
        }
    }
}
