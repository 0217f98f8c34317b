/// A retry budget shared by the requests of one client: one of the published models, behind one
/// interface that a retry loop or a simulation drives.
///
/// Call ``requestStarted(at:)`` for each new request, ``acquireRetry(at:afterTimeout:kind:activeRequests:activeRetries:)``
/// before each retry (a denied retry ends the request), and ``recordAnswer(success:retryCost:)`` for each
/// answer from the server.
public enum RetryBudget: Hashable, Sendable {
    /// gRPC's retry throttling (see ``TokenBucketBudget``).
    case tokenBucket(TokenBucketBudget)
    /// The AWS SDKs' retry quota (see ``RetryQuota``).
    case quota(RetryQuota)
    /// Finagle's ratio budget (see ``RatioBudget``).
    case ratio(RatioBudget)
    /// Envoy's concurrency budget (see ``ConcurrencyBudget``).
    case concurrency(ConcurrencyBudget)

    /// The name used in CSV and messages.
    public var name: String {
        switch self {
        case .tokenBucket: "token"
        case .quota: "aws-quota"
        case .ratio: "ratio"
        case .concurrency: "concurrency"
        }
    }

    /// A new request started at `now` (nanoseconds).
    public mutating func requestStarted(at now: Nanoseconds) {
        if case .ratio(var budget) = self {
            budget.recordRequest(at: now)
            self = .ratio(budget)
        }
    }

    /// Asks for a retry. - Returns: the retry's cost (0 for budgets that do not charge one), or `nil`
    /// when the budget denies it.
    public mutating func acquireRetry(
        at now: Nanoseconds, afterTimeout: Bool, kind: FailureKind = .transient, activeRequests: Int,
        activeRetries: Int
    ) -> Int? {
        switch self {
        case .tokenBucket(let bucket):
            return bucket.allowsRetry ? 0 : nil
        case .quota(var quota):
            let cost = quota.acquireRetry(afterTimeout: afterTimeout, kind: kind)
            self = .quota(quota)
            return cost
        case .ratio(var budget):
            let allowed = budget.acquireRetry(at: now)
            self = .ratio(budget)
            return allowed ? 0 : nil
        case .concurrency(let budget):
            return budget.allowsRetry(activeRequests: activeRequests, activeRetries: activeRetries) ? 0 : nil
        }
    }

    /// An answer from the server: `retryCost` is what the answered attempt's retry cost (`nil` for a
    /// first attempt).
    public mutating func recordAnswer(success: Bool, retryCost: Int?) {
        switch self {
        case .tokenBucket(var bucket):
            bucket.record(success: success)
            self = .tokenBucket(bucket)
        case .quota(var quota):
            if success { quota.recordSuccess(retryCost: retryCost) }
            self = .quota(quota)
        case .ratio, .concurrency:
            return
        }
    }
}
