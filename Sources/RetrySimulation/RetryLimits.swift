import BackoffPolicies

/// What limits a client's retries beyond its policy: a retry budget, a circuit breaker, an
/// adaptive throttle and the AWS SDKs' client-side rate limiter, each optional. The first three are
/// shared by all the simulated clients (as one client library serving every request of an
/// application), so they interact through the load they see; the rate limiter is shared or each
/// client's own (`RateLimiterScope`).
public struct RetryLimits: Hashable, Sendable {
    public var budget: RetryBudget?
    public var breaker: CircuitBreaker?
    public var throttle: AdaptiveThrottle?
    /// The AWS adaptive retry mode's rate limiter (`AdaptiveRateLimiter`) in front of every
    /// attempt, and who shares it.
    public var rateLimiter: AdaptiveRateLimiting?
    /// An adaptive concurrency limit on the clients' attempts in flight (`simulate --limit`), as
    /// Netflix's client-side limiter keeps one: an attempt beyond it is refused at once.
    public var concurrencyLimit: ConcurrencyLimit?

    public init(
        budget: RetryBudget? = nil, breaker: CircuitBreaker? = nil, throttle: AdaptiveThrottle? = nil,
        rateLimiter: AdaptiveRateLimiting? = nil, concurrencyLimit: ConcurrencyLimit? = nil
    ) {
        self.budget = budget
        self.breaker = breaker
        self.throttle = throttle
        self.rateLimiter = rateLimiter
        self.concurrencyLimit = concurrencyLimit
    }

    /// No limit at all.
    public var isEmpty: Bool {
        budget == nil && breaker == nil && throttle == nil && rateLimiter == nil && concurrencyLimit == nil
    }
}
