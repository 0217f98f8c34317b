import Foundation

/// Polly v8's exponential backoff with jitter (`polly-v2`) (`RetryHelper.DecorrelatedJitterBackoffV2`, from
/// Polly.Contrib.WaitAndRetry's `DecorrelatedJitterBackoffV2`): for retry k = 0, 1, ... it draws
/// t = k + u and waits (g(t) - g(t_previous)) × b / 1.4, with g(t) = 2^t tanh(√(4t)) and g before
/// the first retry 0; b is the median first delay (Polly's `Delay`).
///
/// The waits telescope: the first R of them total (b / 1.4) g(R - 1 + u_last), so the total lies in
/// [(b / 1.4) g(R - 1), (b / 1.4) g(R)] and its law is that of one uniform through g.
@usableFromInline
enum PollyV2Jitter: ChainJitterFamily {
    @usableFromInline static var streamIndex: UInt64 { 8 }
    /// Polly's MaxDelay clamps; there is no nominal wait to cap.
    @usableFromInline static var defaultCapMode: CapMode { .clamp }
    @usableFromInline static var capModes: [CapMode] { [.clamp] }
    @usableFromInline static func parameter(of jitter: Jitter) -> Double { 0 }
    @usableFromInline static func initialPrevious(base: Double) -> Double { 0 }

    /// min(c, (g(k - 1 + u) - g_previous) b / 1.4), with `previous` holding g_previous.
    @inlinable
    static func draw<Random: UniformSource>(
        _ policy: BackoffPolicy, retry k: Int, previous: inout Double, using random: inout Random
    ) -> Double {
        let next = g(Double(k - 1) + random.nextUniform())
        let wait = (next - previous) * scale(policy._base)
        previous = next
        return min(policy._clampAt, wait)
    }

    @usableFromInline static func window(_ policy: BackoffPolicy, retry k: Int, previous: Double) -> ClosedRange<Double>
    {
        let scale = scale(policy._base)
        let low = max(0, g(Double(k - 1)) - previous) * scale
        let high = (g(Double(k)) - previous) * scale
        return min(policy._clampAt, low)...min(policy._clampAt, high)
    }

    @usableFromInline static func longestTotalWait(_ policy: BackoffPolicy, retries: Int) -> Double {
        min(scale(policy._base) * g(Double(retries)), policy._cap * Double(retries))
    }

    /// W = (b/1.4) g(n - 2 + U): E[W] and Var[W] are one-dimensional integrals; none when the cap
    /// can clamp a wait (the clamp breaks the telescoping sum).
    @usableFromInline static func totals(_ policy: BackoffPolicy, retries: Int, countingCapped: Bool) -> (
        mean: Double, variance: Double, capped: Double
    )? {
        guard !clampCanBind(policy, retries: retries) else { return nil }
        let scale = scale(policy._base)
        let (mean, square) = moments(at: retries - 1)
        return (scale * mean, scale * scale * (square - mean * mean), 0)
    }

    @usableFromInline static func expectedStartTimes(_ policy: BackoffPolicy, retries: Int) -> [Double]? {
        guard !clampCanBind(policy, retries: retries) else { return nil }
        let scale = scale(policy._base)
        return [0] + (0..<retries).map { k in scale * moments(at: k).mean / 1e9 }
    }

    @usableFromInline static func totalWaitRange(_ policy: BackoffPolicy, retries: Int, largest: Double) -> ClosedRange<
        Double
    > {
        if clampCanBind(policy, retries: retries) { return 0...largest }
        return scale(policy._base) * g(Double(retries - 1)) / 1e9...largest
    }

    @usableFromInline static func uncappedRetries(_ policy: BackoffPolicy, retries: Int) -> Int {
        var k = 0
        while k < retries && !clampCanBind(policy, retries: k + 1) { k += 1 }
        return k
    }

    @usableFromInline static func expectedTotals(_ policy: BackoffPolicy) -> AnyIterator<Double> {
        var retries = 0
        return AnyIterator {
            retries += 1
            guard !clampCanBind(policy, retries: retries) else { return nil }
            return scale(policy._base) * moments(at: retries - 1).mean / 1e9
        }
    }

    /// True when the clamp to c can change one of the first `retries` waits.
    @usableFromInline static func clampCanBind(_ policy: BackoffPolicy, retries: Int) -> Bool {
        policy._cap.isFinite && scale(policy._base) * largestStep(retries: retries) > policy._cap
    }

    /// g(t) = 2^t tanh(√(4t)), increasing on t >= 0.
    @usableFromInline static func g(_ t: Double) -> Double { pow(2, t) * tanh((4 * t).squareRoot()) }

    /// b / 1.4: the scale that puts the median first delay near b.
    @usableFromInline static func scale(_ base: Double) -> Double { base / 1.4 }

    /// The t >= 0 with g(t) = y (bisection to full precision), for the exact law of the total.
    @usableFromInline static func inverseG(_ y: Double) -> Double {
        guard y > 0 else { return 0 }
        var (low, high) = (0.0, 1.0)
        while g(high) < y { high *= 2 }
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if mid == low || mid == high { break }
            if g(mid) < y { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// E[g(k + U)] and E[g(k + U)²] for U ~ U(0, 1), by Gauss-Legendre on U = v² (which removes the
    /// square-root kink of tanh(√(4t)) at t = 0), 8 panels of 20 points.
    @usableFromInline static func moments(at k: Int) -> (mean: Double, meanSquare: Double) {
        let rule = GaussLegendre(points: 20)
        var (mean, square) = (0.0, 0.0)
        let panels = 8
        for panel in 0..<panels {
            let (low, high) = (Double(panel) / Double(panels), Double(panel + 1) / Double(panels))
            let half = (high - low) / 2
            for (node, weight) in zip(rule.nodes, rule.weights) {
                let v = low + half * (node + 1)
                let value = g(Double(k) + v * v)
                mean += weight * half * 2 * v * value
                square += weight * half * 2 * v * value * value
            }
        }
        return (mean, square)
    }

    /// The largest single wait the first `retries` waits can take, over b / 1.4: for retry k it is
    /// g(k + 1) - g(k - 1) (the draw at the top of its range after one at the bottom of its own).
    @usableFromInline static func largestStep(retries: Int) -> Double {
        var largest = 0.0
        for k in 0..<max(0, retries) {
            let floor = k == 0 ? 0 : g(Double(k - 1))
            largest = max(largest, g(Double(k + 1)) - floor)
        }
        return largest
    }
}
