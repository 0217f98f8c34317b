/// Full jitter (`full`): w_k = U(0, e_k), the AWS SDKs', gRPC's retries' and swift-retry's.
/// ```
/// E[W] = Σ e_k / 2      Var[W] = Σ e_k² / 12      range [0, Σ e_k]
/// ```
/// Under `clamp` each wait is min(c, U(0, schedule_k)), with the moments of ``JitterWindow``.
@usableFromInline
enum FullJitter: WindowJitterFamily {
    @usableFromInline static var streamIndex: UInt64 { 1 }
    @usableFromInline static func meanPerNominal(parameter: Double) -> Double { 0.5 }

    @usableFromInline static func window(parameter: Double) -> JitterWindow {
        JitterWindow(lowScale: 0, lowOffset: 0, highScale: 1, highOffset: 0)
    }

    /// U(0, e) from a uniform u in [0, 1).
    @inlinable static func draw(nominal: Double, parameter: Double, _ u: Double) -> Double { nominal * u }

    @usableFromInline static func unclampedTotals(_ policy: BackoffPolicy, sums: NominalWaitSums, retries: Int) -> (
        mean: Double, variance: Double, capped: Double
    ) {
        (sums.sum / 2, sums.sumOfSquares / 12, 0)
    }

    @usableFromInline static func unclampedMean(_ policy: BackoffPolicy, retry k: Int) -> Double {
        0.5 * policy.nominalWaitNanoseconds(beforeRetry: k)
    }

    @usableFromInline static func unclampedRange(largest: Double) -> ClosedRange<Double>? { 0...largest }

    @usableFromInline static func roundedLaw(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? {
        guard policy.capMode == .nominal else {
            return law(policy, retry: k).map { ($0.low.rounded(), $0.high.rounded(), $0.atCap) }
        }
        return (0, policy.nominalWaitNanoseconds(beforeRetry: k).rounded(), 0)
    }
}
