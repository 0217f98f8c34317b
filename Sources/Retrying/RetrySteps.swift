import BackoffPolicies

/// One request's way through its policy and its retrier's shared limits: what `run`, `outcome` and
/// the stream operator share. It registers the request with the budget when made, admits each attempt
/// past the throttle and the breaker, records each answer with them, and after a failure classifies
/// the error and decides (policy, then budget) whether to retry and after how long.
struct RetrySteps<C: Clock> where C.Duration == Duration {
    enum Step {
        case retry(after: Duration)
        case stop(RetryError)
    }

    let retrier: Retrier<C>
    private let start: C.Instant
    private var state: BackoffState
    private var retryCost: Int? = nil
    private var retried = false

    init(retrier: Retrier<C>) {
        self.retrier = retrier
        start = retrier.clock.now
        state = BackoffState(policy: retrier.policy)
        retrier.budget?.requestStarted()
    }

    /// The number of the attempt about to start (1 for the first).
    var attempt: Int { state.attempts }

    /// The time since the request began, on the retrier's clock.
    var elapsed: Duration { start.duration(to: retrier.clock.now) }

    /// `nil` when the next attempt may be sent; otherwise the error that stops the request: the
    /// throttle (which draws one uniform per attempt, as the simulation does) or the breaker said no.
    mutating func admit<Random: UniformSource>(using random: inout Random) -> RetryError? {
        if let throttle = retrier.throttle, !throttle.admitsAttempt(random.nextUniform()) {
            return RetryError(reason: .rejectedLocally, lastError: LocalRejection.throttled, attempts: attempt - 1)
        }
        if let breaker = retrier.breaker, !breaker.allowsAttempt() {
            return RetryError(reason: .rejectedLocally, lastError: LocalRejection.breakerOpen, attempts: attempt - 1)
        }
        return nil
    }

    /// The attempt succeeded.
    func succeeded() {
        retrier.budget?.recordAnswer(success: true, retryCost: retryCost)
        retrier.breaker?.record(success: true)
        retrier.throttle?.recordAccept()
        retrier.rateLimiter?.recordSuccess()
    }

    /// The attempt failed with `error`: the limits hear of it, then the classifier, the policy and
    /// the budget decide.
    mutating func decide<Random: UniformSource>(
        after error: any Error, classify: (any Error) -> RetryClassification, using random: inout Random,
        onEvent: ((RetryEvent) -> Void)?
    ) -> Step {
        retrier.budget?.recordAnswer(success: false, retryCost: retryCost)
        retrier.breaker?.record(success: false)
        let step = decision(after: error, classify: classify, using: &random, onEvent: onEvent)
        // The rate limiter hears of the error once the decision is made, if its SDK feeds it one.
        if let rateLimiter = retrier.rateLimiter {
            if case .retry = step {
                rateLimiter.record(error: error, retried: true)
            } else {
                rateLimiter.record(error: error, retried: false)
            }
        }
        return step
    }

    /// What follows `error`: the classifier, the policy and the budget decide.
    private mutating func decision<Random: UniformSource>(
        after error: any Error, classify: (any Error) -> RetryClassification, using random: inout Random,
        onEvent: ((RetryEvent) -> Void)?
    ) -> Step {
        let attempt = state.attempts
        var serverDelay: Int64? = nil
        switch classify(error) {
        case .permanent:
            onEvent?(.stopped(attempt: attempt, reason: .permanentError, error: error))
            return .stop(RetryError(reason: .permanentError, lastError: error, attempts: attempt))
        case .transient:
            break
        case .retryAfter(let delay):
            // A negative delay means none; one beyond 2^62 ns (146 years) waits that long.
            serverDelay = delay <= .zero ? 0 : delay >= .nanoseconds(1 << 62) ? 1 << 62 : delay.wholeNanoseconds
        case .retryAfterHeader(let value):
            do {
                serverDelay = try RetryAfterHeader.delay(value).wholeNanoseconds
            } catch {
                onEvent?(.malformedRetryAfter(value))
            }
        }
        let elapsed = elapsed.wholeNanoseconds
        switch retrier.policy.decide(
            after: &state, elapsed: elapsed, serverDelay: serverDelay, handling: retrier.retryAfterHandling,
            using: &random)
        {
        case .giveUp(let reason):
            let stop: StopReason = reason == .attemptsExhausted ? .attemptsExhausted : .timeLimit
            onEvent?(.stopped(attempt: attempt, reason: stop, error: error))
            return .stop(RetryError(reason: stop, lastError: error, attempts: attempt))
        case .retry(let wait):
            if let budget = retrier.budget {
                guard let cost = budget.acquireRetry(afterTimeout: false, firstRetry: !retried) else {
                    onEvent?(.stopped(attempt: attempt, reason: .budgetExhausted, error: error))
                    return .stop(RetryError(reason: .budgetExhausted, lastError: error, attempts: attempt))
                }
                retryCost = cost
            }
            retried = true
            onEvent?(.willRetry(attempt: attempt, wait: .nanoseconds(wait), error: error))
            return .retry(after: .nanoseconds(wait))
        }
    }

    /// The request is over: the budget no longer counts it active.
    func finish() {
        retrier.budget?.requestEnded(retried: retried)
    }
}

/// Why an attempt was not sent: the error a ``RetryError`` with reason `rejectedLocally` carries.
public enum LocalRejection: Error, Sendable, Equatable {
    /// The shared circuit breaker is open (or half-open with its probes out).
    case breakerOpen
    /// The adaptive throttle rejected the attempt.
    case throttled
}

/// The result of a retry loop with its history (``Retrier/outcome(isolation:using:classify:onEvent:operation:)``).
public struct RetryOutcome<Value> {
    public let result: Result<Value, any Error>
    /// Every attempt, in order, with what was decided after it.
    public let attempts: [AttemptRecord]
}

/// One attempt of a retry loop, as ``RetryOutcome`` reports it.
public struct AttemptRecord: Sendable {
    public enum Outcome: Sendable {
        case succeeded
        case failed(any Error)
        /// Not sent: the breaker or the throttle refused it.
        case rejectedLocally
    }

    public enum Decision: Sendable, Equatable {
        /// The loop returned the value.
        case succeeded
        /// The loop waited this long, then made the next attempt.
        case retry(after: Duration)
        /// The loop stopped.
        case stop(StopReason)
    }

    /// 1 for the first attempt.
    public let attempt: Int
    /// When it started (or was refused), from the start of the loop, on the retrier's clock.
    public let start: Duration
    /// The wait before it (zero for the first).
    public let waitBefore: Duration
    public let outcome: Outcome
    public let decision: Decision
}

extension RetryOutcome: Sendable where Value: Sendable {}
