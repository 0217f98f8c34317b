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
/// With a per-try timeout T (Envoy's), copy k + 1 starts at s_(k+1) = s_k + T + B_k, B_k the
/// retry backoff's k-th draw (whole milliseconds): every form above is averaged over the joint law
/// of the draws, start schedule by start schedule (``startSchedules``; none past
/// ``maximumStartSchedules`` of them: 2 copies have 25 under Envoy's defaults, 3 have 1,250).
///
/// A percentile hedge's delay is what the run sees: it has no closed form, and every form here is
/// `nan` for one.
///
/// In a ``Scenario`` the hedge is run by `HedgedReplicas` against a capacity server's replicas.
/// Under load, copies queue and these forms no longer hold: the simulation says by how much
/// (tested against the forms where no copy waits).
extension Hedging {
    /// The most start schedules a per-try timeout's closed forms average over (``startSchedules``).
    public static let maximumStartSchedules = 5_000

    /// The copies' start times, nanoseconds after the first's, with their probabilities: one
    /// schedule, k·delay, for a fixed delay; for a per-try timeout, one for each combination of
    /// the backoff's draws; `nil` past ``maximumStartSchedules`` of them, and for a percentile
    /// hedge, whose delay is what the run sees.
    public func startSchedules() -> [(starts: [Double], probability: Double)]? {
        let (timeout, backoff): (Duration, BackoffPolicy)
        switch rule {
        case .percentile: return nil
        case .fixedDelay(let delay): return [((0..<copies).map { Double($0) * delay.nanoseconds }, 1)]
        case .perTryTimeout(let perTry, let policy): (timeout, backoff) = (perTry, policy)
        }
        // Draw k (before copy k + 1) is g·floor(U·w_k / g), w_k its window: value i·g with
        // probability (min((i + 1)g, w_k) − i·g) / w_k.
        let grain = backoff.granularity!.nanoseconds
        var laws: [[(value: Double, probability: Double)]] = []
        var count = 1
        for k in 1..<max(copies, 1) {
            let window = backoff.nominalWait(beforeRetry: k).nanoseconds
            let values = Int((window / grain).rounded(.up))
            count *= values
            guard count <= Self.maximumStartSchedules else { return nil }
            laws.append(
                (0..<values).map { i in
                    (Double(i) * grain, (min(Double(i + 1) * grain, window) - Double(i) * grain) / window)
                })
        }
        var schedules: [(starts: [Double], probability: Double)] = [([0], 1)]
        for law in laws {
            schedules = schedules.flatMap { schedule in
                law.map { draw in
                    (
                        schedule.starts + [schedule.starts.last! + timeout.nanoseconds + draw.value],
                        schedule.probability * draw.probability
                    )
                }
            }
        }
        return schedules
    }

    /// The mean of `form` over the start schedules (`nan` when there are too many to average).
    private func averaged(_ form: ([Double]) -> Double) -> Double {
        guard let schedules = startSchedules() else { return .nan }
        return schedules.reduce(0) { $0 + $1.probability * form($1.starts) }
    }

    /// The expected work per request under this hedge's own cancellation rule, nanoseconds.
    public func expectedWork(_ service: ServiceTime) -> Double { expectedWork(service, cancelling: cancelsLosers) }

    /// P(R > t), `t` in nanoseconds.
    public func responseSurvival(_ service: ServiceTime, atNanoseconds t: Double) -> Double {
        averaged { Self.survival(service, starts: $0, atNanoseconds: t) }
    }

    /// P(R > t) for copies started at `starts`.
    static func survival(_ service: ServiceTime, starts: [Double], atNanoseconds t: Double) -> Double {
        var survival = 1.0
        for start in starts where t - start >= 0 { survival *= service.survival(atNanoseconds: t - start) }
        return survival
    }

    /// The expected copies sent per request.
    public func expectedCopies(_ service: ServiceTime) -> Double {
        averaged { starts in
            // Copy k goes when no copy before it answered by its start.
            starts.indices.reduce(0) { sum, k in
                sum + (0..<k).reduce(1) { $0 * service.survival(atNanoseconds: starts[k] - starts[$1]) }
            }
        }
    }

    /// E[R], nanoseconds.
    public func expectedResponse(_ service: ServiceTime) -> Double {
        averaged { integral(service, starts: $0, from: 0) }
    }

    /// The expected work per request, nanoseconds: the losing copies cancelled at the first answer,
    /// or left to run.
    public func expectedWork(_ service: ServiceTime, cancelling: Bool) -> Double {
        guard cancelling else { return service.mean.nanoseconds * expectedCopies(service) }
        return averaged { starts in
            guard cancellationDelay > .zero else {
                return starts.reduce(0) { $0 + integral(service, starts: starts, from: $1) }
            }
            return starts.indices.reduce(0) { sum, k in
                sum
                    + integral(service, starts: starts, from: starts[k]) {
                        self.copyRunning(service, starts: starts, copy: k, atNanoseconds: $0)
                    }
            }
        }
    }

    /// P(copy `k` (0-based) is being served at `t`), a cancellation taking ``cancellationDelay``.
    func copyRunning(_ service: ServiceTime, starts: [Double], copy k: Int, atNanoseconds t: Double) -> Double {
        let delta = cancellationDelay.nanoseconds
        let start = starts[k]
        guard t >= start else { return 0 }
        var running = service.survival(atNanoseconds: t - start)
        if t - delta <= start {
            // Sent (nothing answered by its start), and not done.
            for j in 0..<k { running *= service.survival(atNanoseconds: start - starts[j]) }
        } else {
            // No copy answered before t − δ.
            for j in starts.indices where j != k && starts[j] <= t - delta {
                running *= service.survival(atNanoseconds: t - delta - starts[j])
            }
        }
        return running
    }

    /// ∫_start^∞ P(R > t) dt for copies started at `starts`, or of `f`: Gauss-Legendre between the
    /// points where the integrand may jump or kink (the copies' starts, the same a cancellation
    /// delay later, and each fixed time after each), then over segments that double in width until
    /// they add nothing.
    func integral(
        _ service: ServiceTime, starts: [Double], from start: Double, _ f: ((Double) -> Double)? = nil
    ) -> Double {
        let f = f ?? { Self.survival(service, starts: starts, atNanoseconds: $0) }
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
        let spacing = zip(starts, starts.dropFirst()).map { $1 - $0 }.max() ?? 0
        var width = max(service.mean.nanoseconds, spacing, cancellationDelay.nanoseconds, 1) / 4
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

    private static let quadrature = GaussLegendre(points: 20)

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
            for (x, w) in zip(quadrature.nodes, quadrature.weights) { sum += w * half * f(left + half * (x + 1)) }
        }
        return sum
    }
}
