/// Proportional jitter (`proportional:F`): w_k = U((1 - F) e_k, (1 + F) e_k), cenkalti/backoff's
/// and resilience4j's (F = 0.5), gRPC connection backoff's (0.2), Polly v8's constant and linear
/// jitter (0.25). Under `nominal` a wait can pass the cap by F c.
/// ```
/// E[W] = Σ e_k      Var[W] = F² Σ e_k² / 3      range [(1 - F) Σ e_k, (1 + F) Σ e_k]
/// ```
@usableFromInline
enum ProportionalJitter: WindowJitterFamily {
    @usableFromInline static var streamIndex: UInt64 { 5 }
    @usableFromInline static func meanPerNominal(parameter: Double) -> Double { 1 }

    @usableFromInline static func parameter(of jitter: Jitter) -> Double {
        if case .proportional(let f) = jitter { f } else { 0 }
    }

    @usableFromInline static func window(parameter f: Double) -> JitterWindow {
        JitterWindow(lowScale: 1 - f, lowOffset: 0, highScale: 1 + f, highOffset: 0)
    }

    /// U((1 - F) e, (1 + F) e).
    @inlinable static func draw(nominal: Double, parameter f: Double, _ u: Double) -> Double {
        nominal * (1 - f) + 2 * f * nominal * u
    }

    @usableFromInline static func unclampedTotals(_ policy: BackoffPolicy, sums: NominalWaitSums, retries: Int) -> (
        mean: Double, variance: Double, capped: Double
    ) {
        let f = policy._jitterParameter
        return (sums.sum, f * f * sums.sumOfSquares / 3, 0)
    }
}
