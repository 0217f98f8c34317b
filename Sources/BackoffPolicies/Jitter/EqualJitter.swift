/// Equal jitter (`equal`): w_k = e_k/2 + U(0, e_k/2), the 2015 post's and soto's.
/// ```
/// E[W] = 3 Σ e_k / 4      Var[W] = Σ e_k² / 48      range [Σ e_k / 2, Σ e_k]
/// ```
@usableFromInline
enum EqualJitter: WindowJitterFamily {
    @usableFromInline static var streamIndex: UInt64 { 2 }
    @usableFromInline static func meanPerNominal(parameter: Double) -> Double { 0.75 }

    @usableFromInline static func window(parameter: Double) -> JitterWindow {
        JitterWindow(lowScale: 0.5, lowOffset: 0, highScale: 1, highOffset: 0)
    }

    /// e/2 + U(0, e/2).
    @inlinable static func draw(nominal: Double, parameter: Double, _ u: Double) -> Double {
        let half = nominal / 2
        return half + half * u
    }

    @usableFromInline static func unclampedTotals(_ policy: BackoffPolicy, sums: NominalWaitSums, retries: Int) -> (
        mean: Double, variance: Double, capped: Double
    ) {
        (3 * sums.sum / 4, sums.sumOfSquares / 48, 0)
    }

    @usableFromInline static func unclampedMean(_ policy: BackoffPolicy, retry k: Int) -> Double {
        0.75 * policy.nominalWaitNanoseconds(beforeRetry: k)
    }

    @usableFromInline static func unclampedRange(largest: Double) -> ClosedRange<Double>? { largest / 2...largest }

    @usableFromInline static func roundedLaw(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? {
        guard policy.capMode == .nominal else {
            return law(policy, retry: k).map { ($0.low.rounded(), $0.high.rounded(), $0.atCap) }
        }
        let e = policy.nominalWaitNanoseconds(beforeRetry: k).rounded()
        return (e / 2, e, 0)
    }
}
