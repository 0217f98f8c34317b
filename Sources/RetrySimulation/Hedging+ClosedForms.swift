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
        return (0..<copies).reduce(0) { $0 + integral(service, from: Double($1) * d) }
    }

    /// ∫_start^∞ P(R > t) dt: Gauss-Legendre between the points where the integrand may jump or
    /// kink (the copies' starts, and each fixed time after each start), then over segments that
    /// double in width until they add nothing.
    func integral(_ service: ServiceTime, from start: Double) -> Double {
        precondition(percentile == nil, "a percentile hedge has no closed form")
        let d = delay.nanoseconds
        let starts = (0..<copies).map { Double($0) * d }
        var points = Set(starts)
        for atom in service.atoms { for s in starts { points.insert(s + atom) } }
        let breaks = ([start] + points.filter { $0 > start }).sorted()
        var total = 0.0
        for (a, b) in zip(breaks, breaks.dropFirst()) {
            total += Self.segment(a, b, pieces: 16) { self.responseSurvival(service, atNanoseconds: $0) }
        }
        // The tail, past every break: smooth, and falling.
        let last = breaks[breaks.count - 1]
        var width = max(service.mean.nanoseconds, d, 1) / 4
        var a = last
        for _ in 0..<400 {
            let piece = Self.segment(a, a + width, pieces: 4) { self.responseSurvival(service, atNanoseconds: $0) }
            total += piece
            a += width
            if piece <= 1e-16 * total || responseSurvival(service, atNanoseconds: a) == 0 { break }
            width *= 2
        }
        return total
    }

    private static let rule = GaussLegendre(points: 20)

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
