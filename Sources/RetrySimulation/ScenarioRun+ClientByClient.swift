import BackoffPolicies
import EventSimulation
import Stochastics

/// Servers that answer at once, without shared limits, let each client's session run from start to
/// end before the next client's (see ``ScenarioPath``): no event queue, no client array, and each
/// client's stream in registers (`Taus2(seed: streamSeed(seed, i))` draws exactly what slot i of
/// `ClientStreams` would). The report is the very same as the event-ordered run's (tested).
extension ScenarioRun where Server == InstantServer, Gate == NoLimits {
    /// The whole sessions of the clients `clients`, through the client state machine; the counts
    /// add to the run's (``finish()`` makes the report).
    mutating func runClientByClient<Starts: SessionStarts>(_ starts: Starts, clients: Range<Int>)
        throws(SimulationError)
    {
        let (server, warmUp) = (InstantServer(scenario.server), Taus2.WarmUp.sixSteps)
        for index in clients {
            let start = starts[index]
            var random = Taus2(seed: SeedDerivation.streamSeed(root: seed, stream: UInt64(index)), warmUp: warmUp)
            var client = SimulatedClient(policy: policy, requests: scenario.requestsPerClient)
            var time = VirtualTime(nanoseconds: start)
            while true {
                let isRetry = beginAttempt(&client, at: time, using: &random).isRetry
                let (answer, outcome) = server.answer(isPermanent: client.isPermanent, at: time, using: &random)
                countAttempt(isRetry: isRetry, at: time, answeredAtOnce: outcome)
                guard let next = carryOut(answer, for: &client, index, at: time, using: &random) else { break }
                time = next
            }
            // Times saturate (VirtualTime +), so a session past the horizon is caught once, at its end.
            guard time <= VirtualTime.horizon else { throw .beyondHorizon }
        }
    }

    /// The plain herd (see ``ScenarioPath/plainHerd``): each client sends one request and retries it
    /// on its policy's timer until it succeeds or gives up.
    ///
    /// This is ``runClientByClient(_:clients:)`` without the session state machine: the same server outcome,
    /// the same decision (`BackoffPolicy.decide`), the same draws in the same order, and the counts
    /// made by the same `ScenarioCounters` calls as `carryOut`'s, so the report is the very same
    /// (tested against both other paths). It only leaves out what cannot happen here (see
    /// `Scenario.isPlainHerd`): later requests, permanent errors, the recovery trigger, Retry-After
    /// and shared limits.
    mutating func runPlainHerd<Starts: SessionStarts>(_ starts: Starts, clients: Range<Int>) throws(SimulationError) {
        // Compiled twice: without a log, the loop holds nothing of one.
        if let requestLog {
            try runPlainHerd(starts, clients: clients, logging: LoggedRequests(log: requestLog))
        } else {
            try runPlainHerd(starts, clients: clients, logging: UnloggedRequests())
        }
    }

    private mutating func runPlainHerd<Starts: SessionStarts, Logging: PlainHerdLogging>(
        _ starts: Starts, clients: Range<Int>, logging: Logging
    ) throws(SimulationError) {
        let (policy, server, warmUp) = (policy, InstantServer(scenario.server), Taus2.WarmUp.sixSteps)
        for index in clients {
            let startTime = starts[index]
            var random = Taus2(seed: SeedDerivation.streamSeed(root: seed, stream: UInt64(index)), warmUp: warmUp)
            var backoff = BackoffState(policy: policy)
            var time = VirtualTime(nanoseconds: startTime)
            counters.uniqueRequests += 1
            var outcome = RequestOutcome.gaveUp
            attempt: while true {
                let success = server.outcome(at: time, using: &random).outcome == .success
                counters.attempts &+= 1
                timeline.recordAttempt(
                    at: time, isRetry: backoff.attempts > 1, answeredAtOnce: success ? .success : .failure)
                if success {
                    outcome = .succeeded
                    counters.count(.succeeded, unsent: 0)
                    break attempt
                }
                let elapsed = time.nanoseconds - startTime
                switch policy.decide(
                    after: &backoff, elapsed: elapsed, serverDelay: nil, handling: .ignore, using: &random)
                {
                case .retry(let wait):
                    counters.retryWaits(wait, capWait: capWait)
                    time = time + wait
                case .giveUp:
                    counters.count(.gaveUp, unsent: 0)
                    break attempt
                }
            }
            guard time <= VirtualTime.horizon else { throw .beyondHorizon }
            counters.requestEnded(slot: index, totalWait: backoff.totalWait, start: startTime, end: time.nanoseconds)
            logging.requestEnded(
                RequestRecord(
                    client: index, request: 0, start: VirtualTime(nanoseconds: startTime), completion: time,
                    attempts: backoff.attempts, copies: backoff.attempts, totalWait: .nanoseconds(backoff.totalWait),
                    outcome: outcome))
            counters.sessionEnded(attempts: backoff.attempts)
        }
    }
}

/// Where a plain herd's requests go: nowhere (the loop compiled without a log), or to a log.
private protocol PlainHerdLogging {
    func requestEnded(_ request: @autoclosure () -> RequestRecord)
}

private struct UnloggedRequests: PlainHerdLogging {
    @inline(__always) func requestEnded(_ request: @autoclosure () -> RequestRecord) {}
}

private struct LoggedRequests: PlainHerdLogging {
    let log: any RequestLog
    func requestEnded(_ request: @autoclosure () -> RequestRecord) { log.requestEnded(request()) }
}
