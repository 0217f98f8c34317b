import BackoffPolicies

extension Retrier {
    /// A retrier with a library's default behaviour: the preset's policy, its Retry-After handling,
    /// and its retry budget (if it has one) as a new ``SharedRetryBudget`` on `clock`, shared by every
    /// loop this retrier runs, as the library shares it between the requests of one client.
    ///
    /// ```swift
    /// let retrier = Retrier(preset: .awsSDKStandard, clock: ContinuousClock())
    /// ```
    /// To share the budget with other retriers, or to change the policy, build the retrier from
    /// `preset.policy` and `preset.budget` with ``init(policy:clock:budget:breaker:throttle:retryAfterHandling:)``.
    public init(preset: Preset, clock: C) {
        self.init(
            policy: preset.policy, clock: clock, budget: preset.budget.map { SharedRetryBudget($0, clock: clock) },
            retryAfterHandling: preset.retryAfterHandling)
    }
}

extension Retrier where C == ContinuousClock {
    /// A retrier with the preset's behaviour (see ``init(preset:clock:)``) that waits in real time.
    public init(preset: Preset) {
        self.init(preset: preset, clock: ContinuousClock())
    }
}
