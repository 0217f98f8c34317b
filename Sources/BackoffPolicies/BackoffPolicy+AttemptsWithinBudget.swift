/// The largest attempt budget whose expected total wait fits a wait budget.
extension BackoffPolicy {
    /// The largest number of attempts n whose expected total wait E[W(n)] stays at or under `limit`,
    /// with every other parameter of this policy (its own attempt budget and `maxElapsed` are
    /// ignored): `.any` when every n qualifies because the waits are all zero, `.unknown` where E[W(n)]
    /// has no closed form (polly-v2 once its cap can clamp).
    ///
    /// E[W(n)] never decreases in n. For the nominal-schedule modes under `nominal` it is
    /// α Σ e_k + β (n-1), found by doubling and bisection on the closed forms; the other modes step
    /// through E[W(2)], E[W(3)], ... and, once the increments are stationary (converged to 1e-13
    /// relative), extrapolate linearly.
    /// - Complexity: O(log n) closed forms, or O(min(n, mixing time)) steps.
    public func maxAttempts(expectedTotalWaitAtMost limit: Duration) -> AttemptsWithinBudget {
        let budget = limit.nanoseconds / 1e9
        if case .immediate = schedule { return .any }
        if !_shapesWaits, let (perWait, offset) = jitter.kernel.meanPerNominalWait(self) {
            func expected(_ attempts: Int) -> Double {
                let sums = NominalWaitSums(schedule: schedule, base: _base, cap: _cap, retries: attempts - 1)
                return perWait * sums.sumInSeconds + Double(attempts - 1) * offset / 1e9
            }
            guard expected(1) <= budget else { return .attempts(1) }
            var low = 1
            var high = 2
            while expected(high) <= budget {
                low = high
                guard high < Int.max / 4 else { return .attempts(high) }
                high *= 2
            }
            while high - low > 1 {
                let mid = low + (high - low) / 2
                if expected(mid) <= budget { low = mid } else { high = mid }
            }
            return .attempts(low)
        }
        let totals = _shapesWaits ? shapedExpectedTotals() : jitter.kernel.expectedTotals(self)
        var previous = 0.0
        var previousStep = 0.0
        var retries = 0
        while true {
            guard let mean = totals.next() else { return .unknown }
            if mean > budget { return .attempts(retries + 1) }
            retries += 1
            let step = mean - previous
            if retries > 8 && abs(step - previousStep) <= 1e-13 * step {
                return .attempts(retries + 1 + Int(((budget - mean) / step).rounded(.down)))
            }
            previous = mean
            previousStep = step
        }
    }
}
