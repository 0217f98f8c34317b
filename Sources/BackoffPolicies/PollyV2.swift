import Foundation

/// Polly v8's exponential backoff with jitter (`RetryHelper.DecorrelatedJitterBackoffV2`, from
/// Polly.Contrib.WaitAndRetry's `DecorrelatedJitterBackoffV2`): for retry k = 0, 1, ... it draws
/// t = k + u and waits (g(t) - g(t_previous)) × b / 1.4, with g(t) = 2^t tanh(√(4t)) and g before
/// the first retry 0; b is the median first delay (Polly's `Delay`).
///
/// The waits telescope: the first R of them total (b / 1.4) g(R - 1 + u_last), so the total lies in
/// [(b / 1.4) g(R - 1), (b / 1.4) g(R)] and its law is that of one uniform through g.
@usableFromInline
enum PollyV2 {
    /// g(t) = 2^t tanh(√(4t)), increasing on t >= 0.
    @usableFromInline static func g(_ t: Double) -> Double { pow(2, t) * tanh((4 * t).squareRoot()) }

    /// b / 1.4: the scale that puts the median first delay near b.
    @usableFromInline static func scale(_ base: Double) -> Double { base / 1.4 }

    /// The t >= 0 with g(t) = y (bisection to full precision), for the exact law of the total.
    static func inverseG(_ y: Double) -> Double {
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
    static func moments(at k: Int) -> (mean: Double, meanSquare: Double) {
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
    static func largestStep(retries: Int) -> Double {
        var largest = 0.0
        for k in 0..<max(0, retries) {
            let floor = k == 0 ? 0 : g(Double(k - 1))
            largest = max(largest, g(Double(k + 1)) - floor)
        }
        return largest
    }
}
