import BackoffPolicies

extension Retrier {
    /// Runs copies of `operation` as gRPC's A6 `hedgingPolicy` does, and returns the first success.
    ///
    /// - Copy k starts the rule's delay after copy k − 1, on the retrier's clock, unless the call
    ///   was answered; with a delay of zero every copy starts at once. `operation` is given the copy's
    ///   number, from 1.
    /// - A non-fatal failure (any classification but `.permanent`) starts the next copy at once,
    ///   and the following one's delay runs from there.
    /// - A fatal failure (`.permanent`) cancels every other copy and throws ``RetryError`` with
    ///   ``StopReason/permanentError``.
    /// - The first success cancels the other copies (their tasks are cancelled, so work that
    ///   checks for cancellation stops) and is returned.
    /// - The shared limits: a copy after the first is a retry to the ``SharedRetryBudget`` (gRPC's
    ///   token bucket sends hedges only while its tokens exceed half of its maximum), and every
    ///   copy's answer is recorded with it; the breaker and the throttle admit each copy. A copy they
    ///   refuse is not sent; when no copy is left in flight the call throws ``RetryError`` with
    ///   ``StopReason/budgetExhausted`` or ``StopReason/rejectedLocally``.
    /// - When every copy failed, the call throws ``RetryError`` with
    ///   ``StopReason/attemptsExhausted`` and the last failure.
    ///
    /// The classifier, the limits and the random draws run on the caller's actor (`isolation`, as
    /// `run` has it); the copies themselves run concurrently, as child tasks, so `operation` is
    /// `@Sendable`. Cancelling the calling task cancels every copy and throws `CancellationError`.
    /// The retrier's policy (its backoff) is not used: a hedge waits its delay, never a backoff.
    ///
    /// - Precondition: `hedging`'s rule is a fixed delay (`Hedging.Rule.fixedDelay`). A
    ///   percentile delay (Finagle's) and a per-try timeout (Envoy's, a proxy's rule) are simulated
    ///   only: the first needs the latency window of all of a client's calls.
    public func hedge<Value: Sendable, Random: UniformSource>(
        isolation: isolated (any Actor)? = #isolation,
        _ hedging: Hedging,
        using random: inout Random,
        classify: (any Error) -> RetryClassification = { _ in .transient },
        operation: @escaping @Sendable (_ copy: Int) async throws -> Value
    ) async throws -> Value {
        guard case .fixedDelay(let delay) = hedging.rule else {
            preconditionFailure(
                "Retrier.hedge takes a fixed delay; a percentile delay or a per-try timeout is simulated only")
        }
        budget?.requestStarted()
        var calls = HedgedCall<Value>()
        defer { budget?.requestEnded(retried: calls.retried) }
        let clock = self.clock
        return try await withThrowingTaskGroup(of: HedgedCall<Value>.Event.self, isolation: isolation) { group in
            /// Starts the next copy if the limits let it go (else says why not), and arms the timer
            /// of the one after.
            func startNext() -> Refusal? {
                let copy = calls.sent + 1
                if let refusal = refusal(ofCopy: copy, using: &random, calls: &calls) { return refusal }
                calls.sent = copy
                group.addTask { .answered(copy: copy, result: await Result(catching: { try await operation(copy) })) }
                if copy < hedging.copies {
                    calls.timer += 1
                    let (timer, deadline) = (calls.timer, clock.now.advanced(by: delay))
                    if delay == .zero { return startNext() }
                    group.addTask {
                        try await clock.sleep(until: deadline, tolerance: nil)
                        return .timerFired(timer)
                    }
                }
                return nil
            }

            if let refusal = startNext() {
                // The budget never refuses the first copy: the breaker or the throttle did, and says so.
                throw RetryError(reason: refusal.reason, lastError: refusal.error!, attempts: 0)
            }
            while let event = try await group.next() {
                switch event {
                case .timerFired(let timer):
                    guard timer == calls.timer, calls.sent < hedging.copies else { continue }
                    calls.refusal = startNext()
                case .answered(_, .success(let value)):
                    recordAnswer(success: true, calls: calls)
                    group.cancelAll()
                    return value
                case .answered(_, .failure(let error)):
                    if error is CancellationError { throw error }
                    recordAnswer(success: false, calls: calls)
                    calls.answered += 1
                    if classify(error) == .permanent {
                        group.cancelAll()
                        throw RetryError(reason: .permanentError, lastError: error, attempts: calls.sent)
                    }
                    if calls.sent < hedging.copies, calls.refusal == nil {
                        calls.timer += 1  // the next copy goes now; a pending timer is stale
                        calls.refusal = startNext()
                    }
                    if calls.answered == calls.sent {
                        group.cancelAll()
                        throw RetryError(
                            reason: calls.refusal?.reason ?? .attemptsExhausted, lastError: error, attempts: calls.sent)
                    }
                }
            }
            throw CancellationError()  // the group ended without an answer: the calling task was cancelled
        }
    }

    /// Why copy `copy` may not start: the breaker or the throttle refuses it, or (after the first)
    /// the budget refuses it as a retry.
    private func refusal<Random: UniformSource, Value>(
        ofCopy copy: Int, using random: inout Random, calls: inout HedgedCall<Value>
    ) -> Refusal? {
        if let throttle, !throttle.admitsAttempt(random.nextUniform()) {
            return Refusal(reason: .rejectedLocally, error: .throttled)
        }
        if let breaker, !breaker.allowsAttempt() { return Refusal(reason: .rejectedLocally, error: .breakerOpen) }
        guard copy > 1, let budget else { return nil }
        guard let cost = budget.acquireRetry(afterTimeout: false, firstRetry: !calls.retried) else {
            return Refusal(reason: .budgetExhausted, error: nil)
        }
        calls.retried = true
        calls.retryCost = cost
        return nil
    }

    /// A copy's answer, as the shared limits hear it.
    private func recordAnswer<Value>(success: Bool, calls: HedgedCall<Value>) {
        budget?.recordAnswer(success: success, retryCost: success ? calls.retryCost : nil)
        breaker?.record(success: success)
        if success { throttle?.recordAccept() }
    }
}

/// One hedged call's state, as `Retrier.hedge` keeps it on the caller's actor.
struct HedgedCall<Value: Sendable> {
    /// What the call's child tasks report.
    enum Event: Sendable {
        case answered(copy: Int, result: Result<Value, any Error>)
        /// The timer armed as number `timer` fired (a later one makes it stale).
        case timerFired(Int)
    }

    var sent = 0, answered = 0, timer = 0
    var retried = false
    var retryCost: Int?
    /// Why the limits refused a copy (the call's reason to stop once no copy is left in flight).
    var refusal: Refusal?
}

/// Why the shared limits refused to start a copy, and the error that says so (`nil` for the budget,
/// whose refusal leaves the copies' own last failure as the error).
struct Refusal {
    let reason: StopReason
    let error: LocalRejection?
}

extension Result where Failure == any Error {
    /// The result of `body`: its value, or the error it threw.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
