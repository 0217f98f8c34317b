import Foundation

/// Exponential jitter (`exponential`): the wait before retry k is exponential with mean e_k, the
/// memoryless wait of the retrial queues' "orbit", which makes a capacity model with retries a
/// Markov chain. Under `nominal` (the default) e_k = min(c, schedule_k) and a draw may pass the cap;
/// under `clamp` each wait is min(c, X) with X exponential of mean schedule_k.
/// ```
/// w_k = -e_k ln(1 - u)      E[W] = Σ e_k      Var[W] = Σ e_k²      (W is hypoexponential)
/// clamp, m = schedule_k, x = c/m, p = e^(-x) = P(w_k = c):
///   E[w_k] = m (1 - p)      Var[w_k] = m² (1 - p² - 2 x p)
/// ```
/// A draw is bounded by its uniform: the largest below 1, 1 - 2^-53, gives 53 ln 2 = 36.74 means,
/// so a wait never exceeds ``largestDraw`` times e_k, which bounds the longest total wait the
/// policy admits. The waits have no window law, so no granularity or first-retry rule shapes them
/// (their closed forms assume a uniform law) and the outage convolution has no formula for them.
@usableFromInline
enum ExponentialJitter: IndependentWaitFamily {
    @usableFromInline static var streamIndex: UInt64 { 10 }
    @usableFromInline static var defaultCapMode: CapMode { .nominal }
    @usableFromInline static var capModes: [CapMode] { [.nominal, .clamp] }
    @usableFromInline static var buildsItsOwnSchedule: Bool { false }
    @usableFromInline static var takesWaitShapes: Bool { false }
    @usableFromInline static func parameter(of jitter: Jitter) -> Double { 0 }
    @usableFromInline static func initialPrevious(base: Double) -> Double { 0 }

    /// The most a draw can be, in means: above 53 ln 2 = 36.7368, which the largest uniform below 1
    /// gives, so that rounding in the logarithm cannot pass it.
    @usableFromInline static let largestDraw = 36.75

    /// An exponential of mean `mean` from a uniform u in [0, 1).
    @inlinable static func draw(mean: Double, _ u: Double) -> Double { -mean * log1p(-u) }

    @inlinable
    static func draw<Random: UniformSource>(
        _ policy: BackoffPolicy, retry k: Int, previous: inout Double, using random: inout Random
    ) -> Double {
        min(policy._clampAt, draw(mean: policy.windowNominal(beforeRetry: k), random.nextUniform()))
    }

    @inlinable
    static func drawTotalWaits<Random: UniformSource, Sink: TotalWaitSink>(
        _ policy: BackoffPolicy, count: Int, retries: Int, nominal: UnsafePointer<Double>, capWait: Int64,
        using random: inout Random, into sink: inout Sink
    ) -> Int {
        let c = policy._clampAt
        return BackoffPolicy.drawRuns(count, retries, nominal, capWait, &random, &sink) { e, u in
            min(c, draw(mean: e, u))
        }
    }

    /// From 0 to the largest draw (at most c under `clamp`).
    @usableFromInline static func window(_ policy: BackoffPolicy, retry k: Int, previous: Double) -> ClosedRange<Double>
    {
        0...min(policy._clampAt, largestDraw * policy.windowNominal(beforeRetry: k))
    }

    /// No uniform law: an exponential wait is not U(low, high).
    @usableFromInline static func law(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? { nil }

    @usableFromInline static func roundedLaw(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? { nil }

    @usableFromInline static func longestTotalWait(_ policy: BackoffPolicy, retries: Int) -> Double {
        guard policy._clampAt.isFinite else {
            let sums = NominalWaitSums(
                schedule: policy.schedule, base: policy._base, cap: policy._tableCap, retries: retries)
            return largestDraw * sums.sum
        }
        // Σ min(c, 36.75 schedule_k): once a top reaches c, every later one does.
        var total = 0.0
        for k in stride(from: 1, through: retries, by: 1) {
            let top = largestDraw * policy.windowNominal(beforeRetry: k)
            if top >= policy._cap { return total + Double(retries - k + 1) * policy._cap }
            total += top
        }
        return total
    }

    /// One wait's mean, variance and chance of equalling the cap, with `mean` the exponential's.
    @usableFromInline static func moments(mean m: Double, clampedAt c: Double) -> (
        mean: Double, variance: Double, atCap: Double
    ) {
        guard m > 0 else { return (0, 0, c == 0 ? 1 : 0) }
        guard c.isFinite else { return (m, m * m, 0) }
        guard m.isFinite else { return (c, 0, 1) }
        let x = c / m
        let p = exp(-x)
        // Var = m² (1 - p² - 2xp) = c² (1 - p² - 2xp) / x², which cancels for small x: there its
        // series, c² (x/3 - x²/3 + 11x³/60 - 13x⁴/180), good to a relative x⁴.
        let variance =
            x < 1e-3
            ? c * c * x * (1.0 / 3 - x * (1.0 / 3 - x * (11.0 / 60 - x * 13.0 / 180)))
            : m * m * (-expm1(-2 * x) - 2 * x * p)
        return (-m * expm1(-x), variance, p)
    }

    @usableFromInline static func totals(_ policy: BackoffPolicy, retries: Int, countingCapped: Bool) -> (
        mean: Double, variance: Double, capped: Double
    )? {
        guard policy._clampAt.isFinite else {
            let sums = NominalWaitSums(
                schedule: policy.schedule, base: policy._base, cap: policy._cap, retries: retries)
            return (sums.sum, sums.sumOfSquares, 0)
        }
        // Σ of the clamped moments, m = schedule_k.
        return summedMoments(policy, retries: retries) { m in moments(mean: m, clampedAt: policy._cap) }
    }

    /// E[w_k] in nanoseconds.
    @usableFromInline static func expectedWait(_ policy: BackoffPolicy, retry k: Int) -> Double {
        moments(mean: policy.windowNominal(beforeRetry: k), clampedAt: policy._clampAt).mean
    }

    @usableFromInline static func totalWaitRange(_ policy: BackoffPolicy, retries: Int, largest: Double) -> ClosedRange<
        Double
    > {
        0...largest
    }

    /// Under `nominal` the waits whose nominal value is below the cap; under `clamp` none is beyond
    /// its reach (an exponential passes any cap with some chance).
    @usableFromInline static func uncappedRetries(_ policy: BackoffPolicy, retries: Int) -> Int {
        guard policy._clampAt.isFinite else {
            return NominalWaitSums.uncappedCount(
                schedule: policy.schedule, base: policy._base, cap: policy._cap, retries: retries)
        }
        return policy.schedule == .immediate ? retries : 0
    }

    @usableFromInline static func meanPerNominalWait(_ policy: BackoffPolicy) -> (perNominal: Double, offset: Double)? {
        policy._clampAt.isFinite ? nil : (1, 0)
    }
}
