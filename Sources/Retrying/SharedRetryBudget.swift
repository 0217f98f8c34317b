import BackoffPolicies
import Synchronization

/// A ``RetryBudget`` that many concurrent retry loops share safely (the budget lives behind a
/// mutex): one per client library instance, as the budgets' authors intend.
public final class SharedRetryBudget: Sendable {
    private struct State {
        var budget: RetryBudget
        var activeRequests = 0
        var activeRetries = 0
    }

    private let state: Mutex<State>

    public init(_ budget: RetryBudget) {
        state = Mutex(State(budget: budget))
    }

    /// The budget as it is now (a copy).
    public var current: RetryBudget { state.withLock { $0.budget } }

    func requestStarted(at now: Int64) {
        state.withLock {
            $0.activeRequests += 1
            $0.budget.requestStarted(at: now)
        }
    }

    func requestEnded(retried: Bool) {
        state.withLock {
            $0.activeRequests -= 1
            if retried { $0.activeRetries -= 1 }
        }
    }

    /// Takes a retry: its cost, or `nil` when refused. `firstRetry` counts the request as retrying.
    func acquireRetry(at now: Int64, afterTimeout: Bool, firstRetry: Bool) -> Int? {
        state.withLock { state in
            let cost = state.budget.acquireRetry(
                at: now, afterTimeout: afterTimeout, activeRequests: state.activeRequests, activeRetries: state.activeRetries)
            if cost != nil && firstRetry { state.activeRetries += 1 }
            return cost
        }
    }

    func recordAnswer(success: Bool, retryCost: Int?) {
        state.withLock { $0.budget.recordAnswer(success: success, retryCost: retryCost) }
    }
}
