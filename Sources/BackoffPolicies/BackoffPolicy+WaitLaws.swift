/// The window and the law of each wait, for checks and closed forms: what the draw paths draw from.
extension BackoffPolicy {
    /// The interval from which the next wait after `state` is drawn, in nanoseconds (before
    /// rounding), for retry k = `state.attempts`: the mode's window (see ``Jitter``), capped as the
    /// cap mode says; a clamped window's top is the cap, which the draw takes with the probability
    /// that the unclamped draw would have passed it.
    public func waitWindowNanoseconds(after state: BackoffState) -> ClosedRange<Double> {
        if case .immediate = schedule { return 0...0 }
        return jitter.kernel.window(self, retry: state.attempts, previous: state._previous)
    }

    /// The law of the wait before retry k, in nanoseconds, for the modes whose waits are independent
    /// (none, full, equal, proportional, additive): U(low, high) with probability 1 - atCap, and exactly
    /// the cap with probability atCap (under `clamp`, when the window reaches past c). `nil` for the
    /// decorrelated modes and polly-v2, whose waits depend on each other.
    public func waitLawNanoseconds(beforeRetry k: Int) -> (low: Double, high: Double, atCap: Double)? {
        if case .immediate = schedule { return (0, 0, 0) }
        return jitter.kernel.law(self, retry: k)
    }

    /// ``waitLawNanoseconds(beforeRetry:)`` on whole nanoseconds, as the outage convolution takes it (without
    /// jitter, and for full and equal jitter under `nominal`, the nominal wait is rounded first).
    public func roundedWaitLawNanoseconds(beforeRetry k: Int) -> (low: Double, high: Double, atCap: Double)? {
        if case .immediate = schedule { return (0, 0, 0) }
        return jitter.kernel.roundedLaw(self, retry: k)
    }
}
