import BackoffPolicies

/// A `RetryBudget` that many concurrent retry loops share safely (the budget lives behind a
/// mutex): one per client library instance, as the budgets' authors intend.
///
/// The budget keeps one time base for all its callers: its clock (the retriers' clock: the type
/// system makes a ``Retrier`` and its budget share a clock type), measured from the budget's
/// creation. So a sliding-window budget (`RatioBudget`) sees each request start, and each retry
/// taken, at the instant it happened, whichever loop it came from.
public final class SharedRetryBudget<C: Clock>: Sendable where C.Duration == Duration {
    private struct State {
        var budget: RetryBudget
        var activeRequests = 0
        var activeRetries = 0
    }

    private let state: ClockedMutex<State, C>

    public init(_ budget: RetryBudget, clock: C) {
        state = ClockedMutex(State(budget: budget), clock: clock)
    }

    /// The clock the budget reads time from; pass the retriers' own (the same `VirtualClock` in tests).
    public var clock: C { state.clock }

    /// The budget as it is now (a copy).
    public var current: RetryBudget { state.current.budget }

    /// The time since the budget's creation on its clock, in nanoseconds: the budget's time base.
    public var elapsed: Nanoseconds { state.elapsed }

    func requestStarted() {
        state.withLock { state, now in
            state.activeRequests += 1
            state.budget.requestStarted(at: now)
        }
    }

    func requestEnded(retried: Bool) {
        state.withLock { state, _ in
            state.activeRequests -= 1
            if retried { state.activeRetries -= 1 }
        }
    }

    /// Takes a retry now: its cost, or `nil` when refused. `firstRetry` counts the request as retrying.
    func acquireRetry(afterTimeout: Bool, firstRetry: Bool) -> Int? {
        state.withLock { state, now in
            let cost = state.budget.acquireRetry(
                at: now, afterTimeout: afterTimeout, activeRequests: state.activeRequests,
                activeRetries: state.activeRetries)
            if cost != nil && firstRetry { state.activeRetries += 1 }
            return cost
        }
    }

    func recordAnswer(success: Bool, retryCost: Int?) {
        state.withLock { state, _ in state.budget.recordAnswer(success: success, retryCost: retryCost) }
    }
}

extension SharedRetryBudget where C == ContinuousClock {
    /// A budget on the continuous clock, for retriers that wait in real time.
    public convenience init(_ budget: RetryBudget) {
        self.init(budget, clock: ContinuousClock())
    }
}
