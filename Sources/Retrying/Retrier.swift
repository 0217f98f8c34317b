import BackoffPolicies

/// Retries `async throws` work with a `BackoffPolicy`: the very policy `backoff` analyses and
/// simulates, so what ships is what was measured.
///
/// ```swift
/// let retrier = Retrier(policy: try BackoffPolicy(jitter: .full, budget: .maxAttempts(5)))
/// var random = SystemUniforms()
/// let data = try await retrier.run(using: &random, classify: classifyHTTP) { try await fetch(url) }
/// ```
/// - `run` runs on the caller's actor (its `isolation` parameter defaults to `#isolation`, as
///   `withTaskGroup` does): a `@MainActor` view model can retry a closure that mutates its own
///   properties, with no `Sendable` requirement and no hop but the waits.
/// - The operation is called once per attempt and must start new work each time: a closure that
///   returns the result of a task created once (an already-failed `Task`) is "retried" without any
///   new attempt reaching the server.
/// - Waits happen on `clock` (any `Clock` measured in `Duration`; `ContinuousClock` by default, a
///   ``VirtualClock`` in tests); jitter is drawn from the generator passed to `run`.
/// - Each failure is classified: permanent errors stop at once; a server delay (Retry-After) is
///   handled as `retryAfterHandling` says, and one longer than the policy's `maxElapsed` allows gives up
///   at once; the attempt budget and the total-time limit come from the policy. Optional shared
///   limits, each on the retrier's clock, are shared by every loop that holds them: a
///   ``SharedRetryBudget`` refuses retries, a ``SharedCircuitBreaker`` and a ``SharedAdaptiveThrottle``
///   refuse attempts locally (`simulate --budget`, `--breaker`, `--throttle` model the same objects).
/// - Cancelling the task ends a wait at once and throws `CancellationError`; no attempt starts after
///   cancellation. Other stops throw ``RetryError`` with the reason, the last error and the attempts.
///   ``outcome(isolation:using:classify:onEvent:operation:)`` never throws: it returns the result and
///   the history of every attempt.
public struct Retrier<C: Clock>: Sendable where C.Duration == Duration {
    public let policy: BackoffPolicy
    public let clock: C
    public let budget: SharedRetryBudget<C>?
    public let breaker: SharedCircuitBreaker<C>?
    public let throttle: SharedAdaptiveThrottle<C>?
    /// The AWS SDKs' client-side rate limiter in front of every attempt, if any.
    public let rateLimiter: SharedRateLimiter<C>?
    public let retryAfterHandling: RetryAfterHandling

    public init(
        policy: BackoffPolicy, clock: C, budget: SharedRetryBudget<C>? = nil, breaker: SharedCircuitBreaker<C>? = nil,
        throttle: SharedAdaptiveThrottle<C>? = nil, rateLimiter: SharedRateLimiter<C>? = nil,
        retryAfterHandling: RetryAfterHandling = .honor
    ) {
        self.policy = policy
        self.clock = clock
        self.budget = budget
        self.breaker = breaker
        self.throttle = throttle
        self.rateLimiter = rateLimiter
        self.retryAfterHandling = retryAfterHandling
    }

    /// Runs `operation`, on the caller's actor, until it succeeds or a limit stops it.
    public func run<Value, Random: UniformSource>(
        isolation: isolated (any Actor)? = #isolation,
        using random: inout Random,
        classify: (any Error) -> RetryClassification = { _ in .transient },
        onEvent: ((RetryEvent) -> Void)? = nil,
        operation: () async throws -> Value
    ) async throws -> Value {
        try await loop(
            isolation: isolation, using: &random, classify: classify, onEvent: onEvent, record: nil,
            operation: operation
        )
        .get()
    }

    /// Runs `operation` as ``run(isolation:using:classify:onEvent:operation:)`` does, but never
    /// throws: the result (the value, or the error `run` would throw) comes back with the history of
    /// every attempt, for logs, metrics and tests that assert on the whole story.
    public func outcome<Value, Random: UniformSource>(
        isolation: isolated (any Actor)? = #isolation,
        using random: inout Random,
        classify: (any Error) -> RetryClassification = { _ in .transient },
        onEvent: ((RetryEvent) -> Void)? = nil,
        operation: () async throws -> Value
    ) async -> RetryOutcome<Value> {
        var history: [AttemptRecord] = []
        let result = await loop(
            isolation: isolation, using: &random, classify: classify, onEvent: onEvent, record: { history.append($0) },
            operation: operation)
        return RetryOutcome(result: result, attempts: history)
    }

    /// The loop behind `run` and `outcome`.
    private func loop<Value, Random: UniformSource>(
        isolation: isolated (any Actor)?,
        using random: inout Random,
        classify: (any Error) -> RetryClassification,
        onEvent: ((RetryEvent) -> Void)?,
        record: ((AttemptRecord) -> Void)?,
        operation: () async throws -> Value
    ) async -> Result<Value, any Error> {
        var steps = RetrySteps(retrier: self)
        defer { steps.finish() }
        var wait = Duration.zero
        while true {
            if Task.isCancelled { return .failure(CancellationError()) }
            if let rateLimiter {
                // Look for a token, and sleep until the bucket should hold one, as often as it takes.
                var tokenWait = rateLimiter.tryAcquire()
                while tokenWait > .zero {
                    do {
                        try await clock.sleep(until: clock.now.advanced(by: tokenWait), tolerance: nil)
                    } catch {
                        return .failure(CancellationError())
                    }
                    tokenWait = rateLimiter.tryAcquire()
                }
            }
            let attempt = steps.attempt
            let start = steps.elapsed
            if let refusal = steps.admit(using: &random) {
                record?(
                    AttemptRecord(
                        attempt: attempt, start: start, waitBefore: wait, outcome: .rejectedLocally,
                        decision: .stop(.rejectedLocally)))
                onEvent?(.stopped(attempt: attempt, reason: .rejectedLocally, error: refusal.lastError))
                return .failure(refusal)
            }
            let error: any Error
            do {
                let value = try await operation()
                steps.succeeded()
                record?(
                    AttemptRecord(
                        attempt: attempt, start: start, waitBefore: wait, outcome: .succeeded, decision: .succeeded))
                onEvent?(.succeeded(attempt: attempt))
                return .success(value)
            } catch let cancelled as CancellationError {
                return .failure(cancelled)
            } catch let failure {
                error = failure
            }
            switch steps.decide(after: error, classify: classify, using: &random, onEvent: onEvent) {
            case .stop(let stop):
                record?(
                    AttemptRecord(
                        attempt: attempt, start: start, waitBefore: wait, outcome: .failed(error),
                        decision: .stop(stop.reason)))
                return .failure(stop)
            case .retry(let next):
                record?(
                    AttemptRecord(
                        attempt: attempt, start: start, waitBefore: wait, outcome: .failed(error),
                        decision: .retry(after: next)))
                wait = next
                do {
                    try await clock.sleep(until: clock.now.advanced(by: next), tolerance: nil)
                } catch {
                    return .failure(CancellationError())
                }
            }
        }
    }
}

extension Retrier where C == ContinuousClock {
    /// A retrier that waits in real time.
    public init(
        policy: BackoffPolicy, budget: SharedRetryBudget<ContinuousClock>? = nil,
        breaker: SharedCircuitBreaker<ContinuousClock>? = nil,
        throttle: SharedAdaptiveThrottle<ContinuousClock>? = nil,
        rateLimiter: SharedRateLimiter<ContinuousClock>? = nil, retryAfterHandling: RetryAfterHandling = .honor
    ) {
        self.init(
            policy: policy, clock: ContinuousClock(), budget: budget, breaker: breaker, throttle: throttle,
            rateLimiter: rateLimiter, retryAfterHandling: retryAfterHandling)
    }
}
