import BackoffPolicies

/// What limits a client's retries beyond its policy: a retry budget, a circuit breaker and an
/// adaptive throttle, each optional and each shared by all the simulated clients (as one client
/// library serving every request of an application), so they interact through the load they see.
public struct RetryLimits: Hashable, Sendable {
    public var budget: RetryBudget?
    public var breaker: CircuitBreaker?
    public var throttle: AdaptiveThrottle?

    public init(budget: RetryBudget? = nil, breaker: CircuitBreaker? = nil, throttle: AdaptiveThrottle? = nil) {
        self.budget = budget
        self.breaker = breaker
        self.throttle = throttle
    }

    /// No limit at all.
    public var isEmpty: Bool { budget == nil && breaker == nil && throttle == nil }
}
