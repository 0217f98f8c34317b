/// Additive jitter (`additive:D`): w_k = e_k + U(0, D), Tenacity's `wait_exponential_jitter`
/// (D = 1 s). Under `nominal` a wait can pass the cap by D.
/// ```
/// E[W] = Σ e_k + (n - 1) D / 2      Var[W] = (n - 1) D² / 12      range [Σ e_k, Σ e_k + (n - 1) D]
/// ```
@usableFromInline
enum AdditiveJitter: WindowJitterFamily {
    @usableFromInline static var streamIndex: UInt64 { 6 }
    @usableFromInline static func meanPerNominal(parameter: Double) -> Double { 1 }

    /// D, in nanoseconds.
    @usableFromInline static func parameter(of jitter: Jitter) -> Double {
        if case .additive(let d) = jitter { d.nanoseconds } else { 0 }
    }

    @usableFromInline static func window(parameter d: Double) -> JitterWindow {
        JitterWindow(lowScale: 1, lowOffset: 0, highScale: 1, highOffset: d)
    }

    /// e + U(0, D).
    @inlinable static func draw(nominal: Double, parameter d: Double, _ u: Double) -> Double { nominal + d * u }

    @usableFromInline static func meanOffset(_ policy: BackoffPolicy) -> Double { policy._jitterParameter / 2 }

    @usableFromInline static func unclampedTotals(_ policy: BackoffPolicy, sums: NominalWaitSums, retries: Int) -> (
        mean: Double, variance: Double, capped: Double
    ) {
        let (count, d) = (Double(retries), policy._jitterParameter)
        return (sums.sum + count * d / 2, count * d * d / 12, 0)
    }
}
