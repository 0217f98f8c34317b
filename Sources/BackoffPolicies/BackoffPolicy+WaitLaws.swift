/// The window and the law of each wait, for checks and closed forms: what the draw paths draw from.
extension BackoffPolicy {
    /// The interval from which the next wait after `state` is drawn, in nanoseconds (before
    /// rounding), for retry k = `state.attempts`: the mode's window (see ``Jitter``), capped as the
    /// cap mode says; a clamped window's top is the cap, which the draw takes with the probability
    /// that the unclamped draw would have passed it.
    public func waitWindow(after state: BackoffState) -> ClosedRange<Double> {
        if case .immediate = schedule { return 0...0 }
        let k = state.attempts
        let previous = state._previous
        switch jitter {
        case .disabled:
            let nominal = nominalWait(beforeRetry: k)
            return nominal...nominal
        case .full, .equal, .proportional, .additive:
            let window = JitterWindow(jitter)!
            let e = windowNominal(beforeRetry: k)
            return min(_clampAt, window.low(e))...min(_clampAt, window.high(e))
        case .decorrelated(let r):
            return min(_clampAt, _base)...min(_clampAt, min(_tableCap, r * previous))
        case .decorrelatedMonotone(let r):
            guard previous > 0 else { return _base..._base }
            return min(_clampAt, previous)...min(_clampAt, min(_tableCap, r * previous))
        case .pollyV2:
            let scale = PollyV2.scale(_base)
            let low = max(0, PollyV2.g(Double(k - 1)) - previous) * scale
            let high = (PollyV2.g(Double(k)) - previous) * scale
            return min(_clampAt, low)...min(_clampAt, high)
        }
    }
}

extension BackoffPolicy {
    /// The law of the wait before retry k, in nanoseconds, for the modes whose waits are independent
    /// (none, full, equal, proportional, additive): U(low, high) with probability 1 - atCap, and exactly
    /// the cap with probability atCap (under `clamp`, when the window reaches past c). `nil` for the
    /// decorrelated modes and polly-v2, whose waits depend on each other.
    public func waitLaw(beforeRetry k: Int) -> (low: Double, high: Double, atCap: Double)? {
        if case .immediate = schedule { return (0, 0, 0) }
        guard let window = JitterWindow(jitter) else { return nil }
        if jitter == .disabled {
            let e = nominalWait(beforeRetry: k)
            return (e, e, 0)
        }
        let e = windowNominal(beforeRetry: k)
        let (low, high) = (window.low(e), window.high(e))
        guard _clampAt.isFinite, high > _cap else { return (low, high, 0) }
        if low >= _cap { return (_cap, _cap, 0) }
        return (low, _cap, (high - _cap) / (high - low))
    }
}
