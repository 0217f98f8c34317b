import BackoffPolicies
import EventSimulation

/// The servers that answer at once and keep no state: always-fail, bernoulli and outage (see
/// ``ServerModel``). Because no attempt affects another, their clients can also run one after the
/// other without the event queue (``ScenarioRun/runClientByClient(_:)``).
struct InstantServer: ModelledServer, StackableServer {
    /// It answers every attempt as it arrives: no events.
    static var eventKinds: UInt32 { 0 }

    /// Every attempt is answered as it arrives, so a session's slot may pass on as it ends.
    static var releasesEveryAttempt: Bool { true }

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

    func receive<Decisions: ServerDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
    ) {
        var random = decisions.random(for: client)
        let (answer, outcome) = self.answer(
            isPermanent: decisions.isPermanent(client), at: decisions.now, using: &random)
        decisions.counted(client, isRetry: isRetry, answeredAtOnce: outcome)
        decisions.answer(client, answer, recording: nil)
    }

    func handle<Decisions: ServerDecisions>(_ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions) {
        preconditionFailure("an instant server schedules no events")
    }

    /// The answer to an attempt at `time`, and the outcome the load timeline counts for it. Draws
    /// one uniform for bernoulli only; a request meeting a permanent error gets that error.
    @inline(__always)
    func answer<Random: UniformSource>(isPermanent permanent: Bool, at time: VirtualTime, using random: inout Random)
        -> (answer: ClientAnswer, outcome: AttemptOutcome)
    {
        let outcome = self.outcome(at: time, using: &random)
        if permanent { return (.permanentError, .failure) }
        return (outcome.outcome == .success ? .success : .failure(serverDelay: outcome.retryAfter), outcome.outcome)
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
