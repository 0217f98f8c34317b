/// Upward proportional jitter (`upward:F`): w_k = U(e_k, (1 + F) e_k), never below the nominal wait:
/// Kubernetes' `wait.Jitter(duration, maxFactor)` (client-go's `retry.DefaultBackoff`, F = 0.1).
/// Under `nominal` a wait can pass the cap by F c.
/// ```
/// E[W] = (1 + F/2) Σ e_k      Var[W] = F² Σ e_k² / 12      range [Σ e_k, (1 + F) Σ e_k]
/// ```
@usableFromInline
enum UpwardJitter: WindowJitterFamily {
    @usableFromInline static var streamIndex: UInt64 { 9 }
    @usableFromInline static func meanPerNominal(parameter f: Double) -> Double { 1 + f / 2 }

    @usableFromInline static func parameter(of jitter: Jitter) -> Double {
        if case .upward(let f) = jitter { f } else { 0 }
    }

    @usableFromInline static func window(parameter f: Double) -> JitterWindow {
        JitterWindow(lowScale: 1, lowOffset: 0, highScale: 1 + f, highOffset: 0)
    }

    /// U(e, (1 + F) e).
    @inlinable static func draw(nominal: Double, parameter f: Double, _ u: Double) -> Double {
        nominal + f * nominal * u
    }

    @usableFromInline static func unclampedTotals(_ policy: BackoffPolicy, sums: NominalWaitSums, retries: Int) -> (
        mean: Double, variance: Double, capped: Double
    ) {
        let f = policy._jitterParameter
        return ((1 + f / 2) * sums.sum, f * f * sums.sumOfSquares / 12, 0)
    }
}
