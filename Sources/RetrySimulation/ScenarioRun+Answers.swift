import BackoffPolicies
import EventSimulation
import Stochastics

/// Carrying out the clients' actions: an answer reaches a client, the client decides, and the
/// driver counts what ended (a request, a session), tells the shared limits and logs the request.
extension ScenarioRun {

    /// Hands an answer to the client and schedules what it does next.
    @inline(__always)
    mutating func deliver(_ answer: ClientAnswer, to index: Int) {
        var random = ClientRandom(streams: streams, client: index)
        if let next = carryOut(answer, for: &clients[index], index, at: now, using: &random) {
            simulation.schedule(ScenarioEvent(kind: .send, client: index), at: next)
        }
    }

    /// Hands an answer to the client, counts what ends, and returns when the client's next attempt
    /// starts (a retry, or the session's next request), or `nil` when its session is over.
    @inline(__always)
    mutating func carryOut<Random: UniformSource>(
        _ answer: ClientAnswer, for client: inout SimulatedClient, _ index: Int, at time: VirtualTime,
        using random: inout Random
    ) -> VirtualTime? {
        let requestStart = client.requestStart
        // Read before the client decides: a retry the policy grants counts as an attempt in its
        // state, and stays uncounted when the shared limits refuse it.
        let waited = client.backoff.totalWait
        let attempts = client.backoff.attempts
        let request = scenario.requestsPerClient - client.requestsLeft
        let session = slots.session(of: index)
        // What the limits hear, read once (a pattern each: cheaper than the enum's ==).
        var (success, throttled, timedOut, local) = (false, false, false, false)
        switch answer {
        case .success: success = true
        case .failure: throttled = scenario.failureKind == .throttling
        case .timeout: timedOut = true
        case .rejectedLocally: local = true
        case .permanentError, .deadlineExceeded: break
        }
        if !local {
            gate.recordAnswer(
                success: success, throttled: throttled, client: index, wasRetry: client.backoff.attempts > 1,
                at: time.nanoseconds)
            gate.attemptEnded(client: index, answer, at: time.nanoseconds)
            if let limit = gate.concurrencyLimitNow { timeline.recordConcurrencyLimit(at: time, limit) }
        }
        var action = client.answered(answer, at: time, policy: policy, behaviour: behaviour, using: &random)
        if case .retry = action,
            !gate.grantsRetry(client: index, afterTimeout: timedOut, at: time.nanoseconds)
        {
            action = client.refuseRetry(at: time, behaviour: behaviour)
        }
        if !local {
            var retried = false
            if case .retry = action { retried = true }
            gate.feedRateLimiter(
                success: success, throttled: throttled, retried: retried, client: index, at: time.nanoseconds
            )
            scheduleTokenWakes()
            if let rate = gate.meanFillRate { timeline.recordFillRate(at: time, rate) }
        }
        switch action {
        case .retry(let next):
            gate.retryScheduled(client: index)
            counters.retryWaits(next.nanoseconds - time.nanoseconds, capWait: capWait)
            return next
        case .endRequest(let outcome, let next, let unsent):
            counters.count(outcome, unsent: unsent)
            if outcome.isLost && next == nil && scenario.onGiveUp == .endSession && scenario.requestsPerClient > 1 {
                counters.deadSessions += 1
            }
            gate.requestEnded(client: index)
            // The request's total wait: its backoff, and its waits for the rate limiter's tokens.
            let totalWait = waited + gate.takeRequestTokenWait(client: index)
            counters.requestEnded(
                slot: session * scenario.requestsPerClient + request, totalWait: totalWait,
                start: requestStart.nanoseconds, end: time.nanoseconds)
            counters.batchRequestEnded(session: session, succeeded: outcome == .succeeded, totalWait: totalWait)
            if logsRequests {
                log(
                    client: index, session: session, request: request, start: requestStart, end: time,
                    attempts: attempts, totalWait: totalWait, outcome: outcome)
            }
            if next == nil { sessionEnded(index, session: session, attempts: client.attempts) }
            return next
        }
    }

    /// Session `session`, in slot `index`, ended: counted, and reported to `progress` every
    /// ``RunProgress/step`` sessions.
    @inline(__always)
    mutating func sessionEnded(_ index: Int, session: Int, attempts: Int) {
        counters.sessionEnded(session, attempts: attempts)
        slots.sessionEnded(index)
        sessionsEnded += 1
        if sessionsEnded % RunProgress.step == 0 { progress?.add(RunProgress.step) }
    }

    /// Whether requests go to a log: tested on the hot path without touching the log itself (no
    /// reference count traffic for runs without one).
    var logsRequests: Bool { requestLog != nil }

    /// The request's row goes to the log (off the hot path: only a run with a log comes here).
    @inline(never)
    mutating func log(
        client index: Int, session: Int, request: Int, start: VirtualTime, end: VirtualTime, attempts: Int,
        totalWait: Int64, outcome: RequestOutcome
    ) {
        guard let requestLog else { return }
        var copies = attempts
        if !requestCopies.isEmpty {
            copies = Int(requestCopies[index])
            requestCopies[index] = 0
        }
        requestLog.requestEnded(
            RequestRecord(
                client: session, request: request, start: start, completion: end, attempts: attempts, copies: copies,
                totalWait: .nanoseconds(totalWait), outcome: outcome))
    }
}
