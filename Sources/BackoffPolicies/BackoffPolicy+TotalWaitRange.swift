/// The bounds of the total wait, and the first retry the cap can limit.
extension BackoffPolicy {
    /// The smallest and largest total wait any draw can produce, in seconds:
    /// ```
    /// none [Σe, Σe]   full [0, Σe]   equal [Σe/2, Σe]   proportional [(1-F) Σe, (1+F) Σe]
    /// additive [Σe, Σe + (n-1) D]    clamp: [Σ min(c, low_k), Σ min(c, high_k)]
    /// decorrelated [(n-1) b, Σ min(c, b r^k)]   monotone [(n-1) b, b + Σ_(k<n-1) min(c, b r^k)]
    /// polly-v2 [(b/1.4) g(n-2), (b/1.4) g(n-1)]
    /// ```
    /// With `maxElapsed` and random jitter the range is [0, min(largest, maxElapsed)]. For polly-v2
    /// with a cap that can clamp, the range is [0, min((n-1) c, (b/1.4) g(n-1))]: bounds, the lower one
    /// not attained.
    public var totalWaitRange: ClosedRange<Double> {
        if case .immediate = schedule { return 0...0 }
        let retries = maxAttempts - 1
        let largest = Self.longestPossibleTotalWait(self) / 1e9
        if maxElapsed != nil {
            if jitter == .disabled {
                let total = nominalStartTimes.last ?? 0
                return total...total
            }
            return 0...min(largest, _maxElapsed / 1e9)
        }
        guard retries > 0 else { return 0...0 }
        if _shapesWaits { return shapedTotalWaitRange(retries: retries) }
        return jitter.kernel.totalWaitRange(self, retries: retries, largest: largest)
    }

    /// The first retry k whose wait the cap can limit: e_k = c (none, and the other nominal-schedule
    /// modes under `nominal`), a window reaching past c (under `clamp`), b r^(k-1) > c for the k-th
    /// draw of the decorrelated modes, or a polly-v2 step that can pass c. `nil` when the cap never
    /// binds within the budget.
    public var firstCappedRetry: Int? {
        let retries = maxAttempts - 1
        guard _cap.isFinite, retries > 0 else { return nil }
        if case .immediate = schedule { return nil }
        let uncapped = jitter.kernel.uncappedRetries(self, retries: retries)
        guard uncapped < retries else { return nil }
        // A first retry of its own is limited by the cap only when e_1 is the cap and it is not
        // skipped; the cap then binds from the second retry, where the family's windows start again.
        if uncapped == 0 && firstRetry != .jittered {
            if firstRetry == .unjittered && nominalWaitNanoseconds(beforeRetry: 1) >= _cap { return 1 }
            return retries >= 2 ? 2 : nil
        }
        return uncapped + 1
    }
}
