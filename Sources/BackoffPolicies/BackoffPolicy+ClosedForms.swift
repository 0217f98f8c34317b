import Foundation

/// Closed-form companions of a policy, for a request whose every attempt fails at once (attempts
/// take no time, so an attempt starts when the wait before it ends). All results are in seconds.
extension BackoffPolicy {
    /// The mean and variance of the total wait W = w_1 + ... + w_(n-1), or `nil` where no closed form
    /// applies: a random jitter mode together with `maxElapsed` (which truncates the sum at random),
    /// or polly-v2 with a cap that can clamp a wait (the clamp breaks the telescoping sum).
    ///
    /// With the nominal waits e_k = min(c, schedule_k) (sums in closed form: see `NominalWaitSums`):
    /// ```
    /// none             E[W] = Σ e_k                 Var[W] = 0
    /// full             E[W] = Σ e_k / 2             Var[W] = Σ e_k² / 12
    /// equal            E[W] = 3 Σ e_k / 4           Var[W] = Σ e_k² / 48
    /// proportional(F)  E[W] = Σ e_k                 Var[W] = F² Σ e_k² / 3
    /// additive(D)      E[W] = Σ e_k + (n-1) D/2     Var[W] = (n-1) D² / 12
    /// decorrelated     the recursion of `DecorrelatedMoments` (exact without a binding cap,
    ///                  deterministic numerical integration with one); the monotone mode's first
    ///                  wait is b, then the same recursion from b
    /// polly-v2         W = (b/1.4) g(n-2+U): E[W] and Var[W] are one-dimensional integrals
    /// ```
    /// Under cap mode `clamp` each wait is min(c, U(low, high)) of its uncapped window, with the
    /// moments of `JitterWindow/moments(nominal:cap:clamp:)`, summed over the waits. Each family's
    /// file (`Jitter/`) holds its own forms.
    /// For an uncapped exponential schedule Σ e_k is the geometric series b (m^(n-1) - 1) / (m - 1).
    /// The immediate schedule waits zero, whatever the jitter.
    public var totalWaitMoments: TotalWaitMoments? {
        closedFormTotals(countingCapped: false).map {
            TotalWaitMoments(mean: $0.mean / 1e9, variance: $0.variance / 1e18)
        }
    }

    /// E[W] in seconds; see ``totalWaitMoments``.
    public var expectedTotalWait: Double? { totalWaitMoments?.mean }

    /// The expected share of a request's n - 1 waits that equal the cap exactly, or `nil` where
    /// ``totalWaitMoments`` has no closed form or the request makes no retry. Without a cap it is 0,
    /// and so it is for every continuous window under `nominal` (only a wait without jitter can sit
    /// at the cap there). Under `clamp` a wait from U(low, high) equals c with probability
    /// (high - c) / (high - low) when low < c < high.
    public var expectedAtCapFraction: Double? { closedForm?.atCapFraction }

    /// ``totalWaitMoments`` and ``expectedAtCapFraction`` together, computed once (for the
    /// decorrelated modes with a binding cap they are one numerical integration).
    public var closedForm: PolicyClosedForm? {
        guard let totals = closedFormTotals(countingCapped: true) else { return nil }
        let retries = maxAttempts - 1
        // Computed in nanoseconds and converted once, so 3/4 of 1.6 s reads 1.2 s.
        return PolicyClosedForm(
            moments: TotalWaitMoments(mean: totals.mean / 1e9, variance: totals.variance / 1e18),
            atCapFraction: retries > 0 ? totals.capped / Double(retries) : nil)
    }

    /// The sums behind the closed forms, in nanoseconds: E[W], Var[W] and the expected number of
    /// waits at the cap (left at 0 for the decorrelated chains unless `countingCapped`, which costs
    /// them a third more integration).
    private func closedFormTotals(countingCapped: Bool) -> (mean: Double, variance: Double, capped: Double)? {
        let retries = maxAttempts - 1
        if case .immediate = schedule { return (0, 0, 0) }
        if maxElapsed != nil {
            guard jitter == .disabled else { return nil }
            let total = nominalStartTimes.last ?? 0
            let capped =
                nominalStartTimes.count > 1
                ? (1..<nominalStartTimes.count).count { nominalWaitNanoseconds(beforeRetry: $0) == _cap } : 0
            return (total * 1e9, 0, Double(capped))
        }
        if retries == 0 { return (0, 0, 0) }
        if _shapesWaits { return shapedTotals(retries: retries) }
        return jitter.kernel.totals(self, retries: retries, countingCapped: countingCapped)
    }
}
