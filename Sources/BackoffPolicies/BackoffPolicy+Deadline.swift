extension BackoffPolicy {
    /// The policy of a request that has `deadline` in all: it makes no retry that would start
    /// later than that after its first attempt (`maxElapsed` is the sooner of its own and the
    /// deadline); everything else is the same.
    public func endingBy(_ deadline: Duration) -> BackoffPolicy {
        let elapsed = maxElapsed.map { min($0, deadline) } ?? deadline
        // Every other parameter was validated when this policy was made, and a shorter
        // non-negative maxElapsed is always valid.
        return try! BackoffPolicy(
            base: base, schedule: schedule, cap: cap, jitter: jitter, capMode: capMode, budget: budget,
            maxElapsed: max(.zero, elapsed), firstRetry: firstRetry, granularity: granularity)
    }
}
