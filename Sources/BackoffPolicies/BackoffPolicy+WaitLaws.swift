/// The window and the law of each wait, for checks and closed forms: what the draw paths draw from.
extension BackoffPolicy {
    /// The interval from which the next wait after `state` is drawn, in nanoseconds (before
    /// rounding), for retry k = `state.attempts`: the mode's window (see ``Jitter``), capped as the
    /// cap mode says; a clamped window's top is the cap, which the draw takes with the probability
    /// that the unclamped draw would have passed it.
    public func waitWindowNanoseconds(after state: BackoffState) -> ClosedRange<Double> {
        if case .immediate = schedule { return 0...0 }
        let window = jitter.kernel.window(self, retry: state.attempts, previous: state._previous)
        return _shapesWaits ? shapedWindow(window, retry: state.attempts) : window
    }

    /// The law of the wait before retry k, in nanoseconds, for the modes whose waits are independent
    /// (none, full, equal, proportional, additive): U(low, high) with probability 1 - atCap, and exactly
    /// the cap with probability atCap (under `clamp`, when the window reaches past c). `nil` for the
    /// decorrelated modes and polly-v2, whose waits depend on each other, and with a granularity (the
    /// floored wait is discrete). A first retry of its own (``FirstRetry``) is the point 0 or e_1.
    public func waitLawNanoseconds(beforeRetry k: Int) -> (low: Double, high: Double, atCap: Double)? {
        if case .immediate = schedule { return (0, 0, 0) }
        if _shapesWaits { return _grain > 0 ? nil : unshapedLaw(beforeRetry: k) }
        return jitter.kernel.law(self, retry: k)
    }

    /// ``waitLawNanoseconds(beforeRetry:)`` on whole nanoseconds, as the outage convolution takes it (without
    /// jitter, and for full and equal jitter under `nominal`, the nominal wait is rounded first).
    public func roundedWaitLawNanoseconds(beforeRetry k: Int) -> (low: Double, high: Double, atCap: Double)? {
        if case .immediate = schedule { return (0, 0, 0) }
        if _shapesWaits {
            guard _grain == 0 else { return nil }
            if k == 1 && firstRetry != .jittered {
                let e = unshapedLaw(beforeRetry: 1).low.rounded()
                return (e, e, 0)
            }
        }
        return jitter.kernel.roundedLaw(self, retry: k)
    }
}
