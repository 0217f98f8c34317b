import BackoffPolicies

/// Retries `async throws` work with a ``BackoffPolicy``: the very policy `backoff` analyses and
/// simulates, so what ships is what was measured.
///
/// ```swift
/// let retrier = Retrier(policy: try BackoffPolicy(jitter: .full, budget: .maxAttempts(5)))
/// var random = SystemUniforms()
/// let data = try await retrier.run(using: &random, classify: classifyHTTP) { try await fetch(url) }
/// ```
/// - The operation is called once per attempt and must start new work each time: a closure that
///   returns the result of a task created once (an already-failed `Task`) is "retried" without any
///   new attempt reaching the server.
/// - Waits happen on `clock` (any `Clock` measured in `Duration`; `ContinuousClock` by default, a
///   ``VirtualClock`` in tests); jitter is drawn from the generator passed to ``run(using:classify:onEvent:operation:)``.
/// - Each failure is classified: permanent errors stop at once; a server delay (Retry-After) is
///   handled as `retryAfterHandling` says, and one longer than the policy's `maxElapsed` allows gives up
///   at once; the attempt budget and the total-time limit come from the policy, and an optional
///   shared ``SharedRetryBudget`` (on the same clock) can refuse retries.
/// - Cancelling the task ends a wait at once and throws `CancellationError`; no attempt starts after
///   cancellation. Other stops throw ``RetryError`` with the reason, the last error and the attempts.
public struct Retrier<C: Clock>: Sendable where C.Duration == Duration {
    public let policy: BackoffPolicy
    public let clock: C
    public let budget: SharedRetryBudget<C>?
    public let retryAfterHandling: RetryAfterHandling

    public init(policy: BackoffPolicy, clock: C, budget: SharedRetryBudget<C>? = nil, retryAfterHandling: RetryAfterHandling = .honor) {
        self.policy = policy
        self.clock = clock
        self.budget = budget
        self.retryAfterHandling = retryAfterHandling
    }

    /// Runs `operation` until it succeeds or a limit stops it.
    public func run<Value, Random: UniformSource>(
        using random: inout Random,
        classify: (any Error) -> RetryClassification = { _ in .transient },
        onEvent: ((RetryEvent) -> Void)? = nil,
        operation: () async throws -> Value
    ) async throws -> Value {
        let start = clock.now
        var state = BackoffState(policy: policy)
        var retryCost: Int? = nil
        var retried = false
        budget?.requestStarted()
        defer { budget?.requestEnded(retried: retried) }
        while true {
            try Task.checkCancellation()
            let attempt = state.attempts
            let error: any Error
            do {
                let value = try await operation()
                budget?.recordAnswer(success: true, retryCost: retryCost)
                onEvent?(.succeeded(attempt: attempt))
                return value
            } catch let cancelled as CancellationError {
                throw cancelled
            } catch let failure {
                error = failure
            }
            budget?.recordAnswer(success: false, retryCost: retryCost)
            var serverDelay: Int64? = nil
            switch classify(error) {
            case .permanent:
                onEvent?(.stopped(attempt: attempt, reason: .permanentError, error: error))
                throw RetryError(reason: .permanentError, lastError: error, attempts: attempt)
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
            let elapsed = start.duration(to: clock.now).wholeNanoseconds
            switch policy.decide(after: &state, elapsed: elapsed, serverDelay: serverDelay, handling: retryAfterHandling, using: &random) {
            case .giveUp(let reason):
                let stop: StopReason = reason == .attemptsExhausted ? .attemptsExhausted : .timeLimit
                onEvent?(.stopped(attempt: attempt, reason: stop, error: error))
                throw RetryError(reason: stop, lastError: error, attempts: attempt)
            case .retry(let wait):
                if let budget {
                    guard let cost = budget.acquireRetry(afterTimeout: false, firstRetry: !retried) else {
                        onEvent?(.stopped(attempt: attempt, reason: .budgetExhausted, error: error))
                        throw RetryError(reason: .budgetExhausted, lastError: error, attempts: attempt)
                    }
                    retryCost = cost
                }
                retried = true
                onEvent?(.willRetry(attempt: attempt, wait: .nanoseconds(wait), error: error))
                try await clock.sleep(until: clock.now.advanced(by: .nanoseconds(wait)), tolerance: nil)
            }
        }
    }
}

extension Retrier where C == ContinuousClock {
    /// A retrier that waits in real time.
    public init(
        policy: BackoffPolicy, budget: SharedRetryBudget<ContinuousClock>? = nil, retryAfterHandling: RetryAfterHandling = .honor
    ) {
        self.init(policy: policy, clock: ContinuousClock(), budget: budget, retryAfterHandling: retryAfterHandling)
    }
}
