import BackoffPolicies

extension Retrier {
    /// A retrier with a library's default behaviour: the preset's policy, its Retry-After handling,
    /// its retry budget (if it has one) as a new ``SharedRetryBudget`` on `clock`, and its client-side
    /// rate limiter (`aws-sdk-adaptive`'s) as a new ``SharedRateLimiter``, each shared by every loop
    /// this retrier runs, as the library shares them between the requests of one client.
    /// `isThrottling` tells the rate limiter which errors are throttling errors (none by default).
    ///
    /// ```swift
    /// let retrier = Retrier(preset: .awsSDKStandard, clock: ContinuousClock())
    /// ```
    /// To share the limits with other retriers, or to change the policy, build the retrier from
    /// `preset.policy` and `preset.budget` with
    /// ``init(policy:clock:budget:breaker:throttle:rateLimiter:retryAfterHandling:)``.
    public init(preset: Preset, clock: C, isThrottling: @escaping @Sendable (any Error) -> Bool = { _ in false }) {
        self.init(
            policy: preset.policy, clock: clock, budget: preset.budget.map { SharedRetryBudget($0, clock: clock) },
            rateLimiter: preset.adaptiveRateLimiter.map {
                SharedRateLimiter(clock: clock, sdk: $0.sdk, isThrottling: isThrottling)
            },
            retryAfterHandling: preset.retryAfterHandling)
    }
}

extension Retrier where C == ContinuousClock {
    /// A retrier with the preset's behaviour (see ``init(preset:clock:isThrottling:)``) that waits in
    /// real time.
    public init(preset: Preset, isThrottling: @escaping @Sendable (any Error) -> Bool = { _ in false }) {
        self.init(preset: preset, clock: ContinuousClock(), isThrottling: isThrottling)
    }
}
