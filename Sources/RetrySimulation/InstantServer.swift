import BackoffPolicies
import EventSimulation

/// The servers that answer at once and keep no state: always-fail, bernoulli and outage (see
/// ``ServerModel``). Because no attempt affects another, their clients can also run one after the
/// other without the event queue (``ScenarioRun/runClientByClient(_:)``).
struct InstantServer: SimulatedServer {
    /// Bernoulli's failure probability (`nil` for the others).
    let failureProbability: Double?
    /// The outage's end (`nil` for the others).
    let outageEnd: VirtualTime?
    /// The Retry-After the failures carry.
    let retryAfter: RetryAfter?
    /// A trace's steps (`nil` for the others).
    let trace: FailureTrace?

    init(_ model: ServerModel) {
        switch model {
        case .alwaysFail: (failureProbability, outageEnd, retryAfter, trace) = (nil, nil, nil, nil)
        case .bernoulli(let p, let delay): (failureProbability, outageEnd, retryAfter, trace) = (p, nil, delay, nil)
        case .outage(let end, let delay): (failureProbability, outageEnd, retryAfter, trace) = (nil, end, delay, nil)
        case .trace(let steps): (failureProbability, outageEnd, retryAfter, trace) = (nil, nil, nil, steps)
        default: preconditionFailure("\(model) does not answer at once")
        }
    }

    func receive<Gate: RetryGate>(client: Int, attempt: Int64, isRetry: Bool, in run: inout ScenarioRun<Self, Gate>) {
        var random = ClientRandom(streams: run.streams, client: client)
        let answer = self.answer(run.clients[client], isRetry: isRetry, at: run.now, using: &random, in: &run)
        run.deliver(answer, to: client)
    }

    func handle<Gate: RetryGate>(_ event: ScenarioEvent, number: UInt32, in run: inout ScenarioRun<Self, Gate>) {
        preconditionFailure("an instant server schedules no events")
    }

    /// The answer to `client`'s attempt at `time`, counted in the run. Draws one uniform for
    /// bernoulli only; a request meeting a permanent error gets that error.
    @inline(__always)
    func answer<Random: UniformSource, Gate: RetryGate>(
        _ client: SimulatedClient, isRetry: Bool, at time: VirtualTime, using random: inout Random,
        in run: inout ScenarioRun<Self, Gate>
    ) -> ClientAnswer {
        let outcome = self.outcome(at: time, using: &random)
        run.counters.attempts += 1
        let permanent = client.isPermanent
        run.timeline.recordAttempt(at: time, isRetry: isRetry, answeredAtOnce: permanent ? .failure : outcome.outcome)
        return permanent
            ? .permanentError : outcome.outcome == .success ? .success : .failure(serverDelay: outcome.retryAfter)
    }

    /// The outcome of an attempt at `time`, and the Retry-After of a failure.
    @inline(__always)
    func outcome<Random: UniformSource>(at time: VirtualTime, using random: inout Random) -> (
        outcome: AttemptOutcome, retryAfter: Int64?
    ) {
        if let end = outageEnd {
            return time < end ? (.failure, delay(recovery: end, at: time)) : (.success, nil)
        }
        if let trace {
            // A step of probability 0 or 1 draws nothing, so a 1-then-0 trace is `outage:T` exactly.
            let level = trace.level(at: time)
            let fails =
                level.failureProbability >= 1
                || (level.failureProbability > 0 && random.nextUniform() < level.failureProbability)
            return fails ? (.failure, level.retryAfter?.wholeNanoseconds) : (.success, nil)
        }
        guard let p = failureProbability else { return (.failure, nil) }  // always-fail draws nothing
        return random.nextUniform() < p ? (.failure, delay(recovery: nil, at: time)) : (.success, nil)
    }

    private func delay(recovery: VirtualTime?, at time: VirtualTime) -> Int64? {
        switch retryAfter {
        case .fixed(let delay): delay.wholeNanoseconds
        case .untilRecovery: recovery.map { max(0, $0.nanoseconds - time.nanoseconds) }
        case nil: nil
        }
    }
}
