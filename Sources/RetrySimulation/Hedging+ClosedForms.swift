import BackoffPolicies
import Foundation

/// The closed forms of a hedge where no copy waits for another (a server with enough workers),
/// with S the survival of one copy's service time, d the delay and n the copies:
///
/// ```
/// P(R > t)          = ∏_{k=1..n} S(t − (k−1)d)        (S(x) = 1 for x < 0)
/// E[R]              = ∫_0^∞ P(R > t) dt
/// E[copies]         = Σ_{k=1..n} ∏_{i=1..k−1} S(i d)  (copy k goes when nothing answered by (k−1)d)
/// E[work], kept     = E[T] E[copies]                  (the losers run to their end)
/// E[work], cancelled = Σ_{k=1..n} ∫_{(k−1)d}^∞ P(R > t) dt   (each copy runs from its start to R)
/// ```
///
/// When a cancellation takes δ to reach the server, copy k (sent at s_k) runs at t while it is
/// unfinished and t < R + δ:
///
/// ```
/// P(copy k runs at t) = S(t − s_k) ∏_{j<k} S(s_k − s_j)                 for s_k ≤ t ≤ s_k + δ
///                     = S(t − s_k) ∏_{j≠k, s_j ≤ t−δ} S(t − δ − s_j)    for t > s_k + δ
/// E[work], cancelled  = Σ_k ∫_{s_k}^∞ P(copy k runs at t) dt
/// ```
/// (δ = 0 gives the form above.)
///
/// With exponential service the cancelled work is exactly the mean service time, whatever d and n
/// (memorylessness); with light or heavy tails it is not (tested, with reference values).
///
/// They are for a fixed delay: a percentile hedge's delay is what the run sees, and has none
/// (calling them for one is a programming error).
///
/// In a ``Scenario`` the hedge is run by `HedgedReplicas` against a capacity server's replicas.
/// Under load, copies queue and these forms no longer hold: the simulation says by how much
/// (tested against the forms where no copy waits).
extension Hedging {
    /// The expected work per request under this hedge's own cancellation rule, nanoseconds.
    public func expectedWork(_ service: ServiceTime) -> Double { expectedWork(service, cancelling: cancelsLosers) }

    /// P(R > t), `t` in nanoseconds.
    public func responseSurvival(_ service: ServiceTime, atNanoseconds t: Double) -> Double {
        precondition(percentile == nil, "a percentile hedge has no closed form")
        let d = delay.nanoseconds
        var survival = 1.0
        for k in 0..<copies where t - Double(k) * d >= 0 {
            survival *= service.survival(atNanoseconds: t - Double(k) * d)
        }
        return survival
    }

    /// The expected copies sent per request.
    public func expectedCopies(_ service: ServiceTime) -> Double {
        precondition(percentile == nil, "a percentile hedge has no closed form")
        let d = delay.nanoseconds
        var (sum, product) = (0.0, 1.0)
        for k in 1...copies {
            sum += product
            product *= service.survival(atNanoseconds: Double(k) * d)
        }
        return sum
    }

    /// E[R], nanoseconds.
    public func expectedResponse(_ service: ServiceTime) -> Double { integral(service, from: 0) }

    /// The expected work per request, nanoseconds: the losing copies cancelled at the first answer,
    /// or left to run.
    public func expectedWork(_ service: ServiceTime, cancelling: Bool) -> Double {
        guard cancelling else { return service.mean.nanoseconds * expectedCopies(service) }
        let d = delay.nanoseconds
        guard cancellationDelay > .zero else {
            return (0..<copies).reduce(0) { $0 + integral(service, from: Double($1) * d) }
        }
        return (0..<copies).reduce(0) { sum, k in
            sum + integral(service, from: Double(k) * d) { self.copyRunning(service, copy: k, atNanoseconds: $0) }
        }
    }

    /// P(copy `k` (0-based) is being served at `t`), a cancellation taking ``cancellationDelay``.
    func copyRunning(_ service: ServiceTime, copy k: Int, atNanoseconds t: Double) -> Double {
        let (d, delta) = (delay.nanoseconds, cancellationDelay.nanoseconds)
        let start = Double(k) * d
        guard t >= start else { return 0 }
        var running = service.survival(atNanoseconds: t - start)
        if t - delta <= start {
            // Sent (nothing answered by its start), and not done.
            for j in 0..<k { running *= service.survival(atNanoseconds: start - Double(j) * d) }
        } else {
            // No copy answered before t − δ.
            for j in 0..<copies where j != k && Double(j) * d <= t - delta {
                running *= service.survival(atNanoseconds: t - delta - Double(j) * d)
            }
        }
        return running
    }

    /// ∫_start^∞ P(R > t) dt, or of `f`: Gauss-Legendre between the points where the integrand
    /// may jump or kink (the copies' starts, the same a cancellation delay later, and each fixed
    /// time after each), then over segments that double in width until they add nothing.
    func integral(_ service: ServiceTime, from start: Double, _ f: ((Double) -> Double)? = nil) -> Double {
        precondition(percentile == nil, "a percentile hedge has no closed form")
        let f = f ?? { self.responseSurvival(service, atNanoseconds: $0) }
        let d = delay.nanoseconds
        let starts = (0..<copies).map { Double($0) * d }
        let shifted = starts + (cancellationDelay > .zero ? starts.map { $0 + cancellationDelay.nanoseconds } : [])
        var points = Set(shifted)
        for atom in service.atoms { for s in shifted { points.insert(s + atom) } }
        let breaks = ([start] + points.filter { $0 > start }).sorted()
        var total = 0.0
        let scale = max(service.mean.nanoseconds, 1)
        for (a, b) in zip(breaks, breaks.dropFirst()) {
            total += Self.span(a, b, scale: scale, f)
        }
        // The tail, past every break: smooth, and falling.
        let last = breaks[breaks.count - 1]
        var width = max(service.mean.nanoseconds, d, cancellationDelay.nanoseconds, 1) / 4
        var a = last
        for _ in 0..<400 {
            let piece = Self.segment(a, a + width, pieces: 4, f)
            total += piece
            a += width
            if piece <= 1e-16 * total || f(a) == 0 { break }
            width *= 2
        }
        return total
    }

    private static let rule = GaussLegendre(points: 20)

    /// ∫_a^b f, f smooth and non-increasing on [a, b] (every integrand here is, between breaks):
    /// 16 panels when [a, b] spans a few `scale`s; otherwise panels that double in width from
    /// `scale`/4 until b, or until f(x)·(b − x), a bound on what is left, adds nothing.
    private static func span(_ a: Double, _ b: Double, scale: Double, _ f: (Double) -> Double) -> Double {
        guard b - a > 8 * scale else { return segment(a, b, pieces: 16, f) }
        var (total, x, width) = (0.0, a, scale / 4)
        while x < b {
            let end = min(b, x + width)
            total += segment(x, end, pieces: 4, f)
            x = end
            if f(x) * (b - x) <= 1e-16 * total { break }
            width *= 2
        }
        return total
    }

    /// ∫_a^b f with `pieces` equal panels of the 20-point rule.
    private static func segment(_ a: Double, _ b: Double, pieces: Int, _ f: (Double) -> Double) -> Double {
        guard b > a else { return 0 }
        let h = (b - a) / Double(pieces)
        var sum = 0.0
        for piece in 0..<pieces {
            let (left, half) = (a + Double(piece) * h, h / 2)
            for (x, w) in zip(rule.nodes, rule.weights) { sum += w * half * f(left + half * (x + 1)) }
        }
        return sum
    }
}
