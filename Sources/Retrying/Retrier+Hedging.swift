import BackoffPolicies

extension Retrier {
    /// Runs copies of `operation` as a hedge does, and returns the first success: gRPC's A6
    /// `hedgingPolicy` for a fixed delay, Envoy's `hedge_on_per_try_timeout` for a per-try timeout.
    ///
    /// - Copy k starts the rule's delay after copy k − 1, on the retrier's clock, unless the call
    ///   was answered; with a delay of zero every copy starts at once. `operation` is given the copy's
    ///   number, from 1.
    /// - A non-fatal failure (any classification but `.permanent`) starts the next copy at once,
    ///   and the following one's delay runs from there.
    /// - With a per-try timeout (Envoy's), a copy that has not answered within it stays in flight,
    ///   and the next one goes after a retry backoff drawn from `random`; so does the next after a
    ///   failure of the newest copy, while the failure of a copy hedged already is dropped as long
    ///   as another copy is in flight or due.
    /// - A fatal failure (`.permanent`) cancels every other copy and throws ``RetryError`` with
    ///   ``StopReason/permanentError``.
    /// - The first success cancels the other copies (their tasks are cancelled, so work that
    ///   checks for cancellation stops) and is returned.
    /// - The shared limits: a copy after the first is a retry to the ``SharedRetryBudget`` (gRPC's
    ///   token bucket sends hedges only while its tokens exceed half of its maximum), and every
    ///   copy's answer is recorded with it; the breaker and the throttle admit each copy. A copy they
    ///   refuse is not sent (a later one asks again); when no copy is left in flight the call
    ///   throws ``RetryError`` with ``StopReason/budgetExhausted`` or ``StopReason/rejectedLocally``.
    /// - When every copy failed, the call throws ``RetryError`` with
    ///   ``StopReason/attemptsExhausted`` and the last failure.
    ///
    /// What to do at each step is `HedgedCallMachine`'s decision, the same state machine the
    /// simulation runs in virtual time; `onEvent` hears its trace (`HedgeEvent`), event by event.
    /// The classifier, the limits and the random draws run on the caller's actor (`isolation`, as
    /// `run` has it); the copies themselves run concurrently, as child tasks, so `operation` is
    /// `@Sendable`. Cancelling the calling task cancels every copy and throws `CancellationError`.
    /// The retrier's policy (its backoff) is not used: a hedge waits its rule's delay.
    ///
    /// - Precondition: `hedging`'s rule is not a percentile (Finagle's): its delay needs the latency
    ///   window of all of a client's calls, so it is simulated only.
    public func hedge<Value: Sendable, Random: UniformSource>(
        isolation: isolated (any Actor)? = #isolation,
        _ hedging: Hedging,
        using random: inout Random,
        classify: (any Error) -> RetryClassification = { _ in .transient },
        onEvent: ((HedgeEvent) -> Void)? = nil,
        operation: @escaping @Sendable (_ copy: Int) async throws -> Value
    ) async throws -> Value {
        let spacing: Duration
        var backoff: (policy: BackoffPolicy, state: BackoffState)?
        switch hedging.rule {
        case .fixedDelay(let delay):
            spacing = delay
        case .perTryTimeout(let timeout, let policy):
            spacing = timeout
            backoff = (policy, BackoffState(policy: policy))
        case .percentile:
            preconditionFailure(
                "Retrier.hedge takes a fixed delay or a per-try timeout; a percentile is simulated only")
        }
        budget?.requestStarted()
        var call = HedgedCall<Value>(machine: HedgedCallMachine(hedging))
        defer { budget?.requestEnded(retried: call.retried) }
        let clock = self.clock
        return try await withThrowingTaskGroup(of: HedgedCall<Value>.Event.self, isolation: isolation) { group in
            /// Arms the call's timer (a timer armed before is stale from now on).
            func arm(after delay: Duration) {
                onEvent?(.timerArmed(delay: delay))
                let (timer, deadline) = (call.timer, clock.now.advanced(by: delay))
                group.addTask {
                    try await clock.sleep(until: deadline, tolerance: nil)
                    return .timerFired(timer)
                }
            }

            /// Starts the next copy, and the timer of the one after.
            func send() {
                let copy = call.machine.sent + 1
                onEvent?(.copySent(copy: copy))
                group.addTask { .answered(copy: copy, result: await Result(catching: { try await operation(copy) })) }
                call.timer += 1
                if call.machine.copySent() {
                    if spacing == .zero {
                        _ = perform(call.machine.timerFired(clientAwaits: true))
                    } else {
                        arm(after: spacing)
                    }
                }
            }

            /// Carries out the machine's action; returns whether it answers the call.
            func perform(_ action: HedgedCallMachine.Action) -> Bool {
                switch action {
                case .none:
                    return false
                case .askLimits:
                    let copy = call.machine.sent + 1
                    let refusal = refusal(ofCopy: copy, using: &random, calls: &call)
                    if let refusal {
                        call.refusal = refusal
                        onEvent?(.copyRefused(copy: copy))
                    }
                    return perform(call.machine.limitsAnswered(granted: refusal == nil))
                case .send:
                    send()
                    return false
                case .backOff:
                    guard let wait = backoff!.policy.nextWait(after: &backoff!.state, elapsed: 0, using: &random) else {
                        preconditionFailure(
                            "a call draws one backoff per copy after its first, within its policy's attempts")
                    }
                    call.timer += 1
                    let delay = Duration.nanoseconds(wait)
                    guard delay == .zero else {
                        arm(after: delay)
                        return false
                    }
                    onEvent?(.timerArmed(delay: .zero))
                    return perform(call.machine.timerFired(clientAwaits: true))
                case .answer:
                    return true
                }
            }

            // The throttle and the breaker admit the first copy as they admit any attempt.
            if let refusal = refusal(ofCopy: 1, using: &random, calls: &call) {
                throw RetryError(reason: refusal.reason, lastError: refusal.error!, attempts: 0)
            }
            send()
            while let event = try await group.next() {
                switch event {
                case .timerFired(let timer):
                    guard timer == call.timer else { continue }  // stale: a copy or a backoff re-armed it
                    let answers = perform(call.machine.timerFired(clientAwaits: true))
                    precondition(!answers, "a call is answered only as a copy ends")
                case .answered(let copy, let result):
                    if case .failure(let error) = result, error is CancellationError { throw error }
                    let outcome: HedgedCallMachine.CopyOutcome
                    switch result {
                    case .success:
                        recordAnswer(success: true, calls: call)
                        outcome = .success
                    case .failure(let error):
                        recordAnswer(success: false, calls: call)
                        outcome = classify(error) == .permanent ? .fatalFailure : .failure
                    }
                    onEvent?(.copyEnded(copy: copy, outcome: outcome))
                    guard perform(call.machine.copyEnded(copy, outcome, clientAwaits: true)) else { continue }
                    onEvent?(.answered(copy: copy, outcome: outcome, sent: call.machine.sent))
                    group.cancelAll()
                    switch (result, outcome) {
                    case (.success(let value), _):
                        return value
                    case (.failure(let error), .fatalFailure):
                        throw RetryError(reason: .permanentError, lastError: error, attempts: call.machine.sent)
                    case (.failure(let error), _):
                        throw RetryError(
                            reason: call.refusal?.reason ?? .attemptsExhausted, lastError: error,
                            attempts: call.machine.sent)
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

/// One hedged call's state, as `Retrier.hedge` keeps it on the caller's actor: its machine's, and
/// what the runtime adds (the timer's generation, the budget's bookkeeping).
struct HedgedCall<Value: Sendable> {
    /// What the call's child tasks report.
    enum Event: Sendable {
        case answered(copy: Int, result: Result<Value, any Error>)
        /// The timer armed as number `timer` fired (a later one makes it stale).
        case timerFired(Int)
    }

    var machine: HedgedCallMachine
    var timer = 0
    var retried = false
    var retryCost: Int?
    /// Why the limits last refused a copy (the call's reason to stop once no copy is left in flight).
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
