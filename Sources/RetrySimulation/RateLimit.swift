import Foundation

/// A token bucket at the server (`--server ratelimit:RATE[:burst=B][:share=F]`): it holds at most B
/// tokens, gains `rate` of them a second, and starts full; an attempt that finds a whole token takes
/// it and succeeds, any other fails at once with a throttling error (`FailureKind.throttling`).
/// With a `share` F below 1, only that share of the clients (each drawn once, from its own stream)
/// send to the limited resource; the others' attempts go to one without a limit and succeed, as
/// one SDK client's requests go to a throttled bucket and to others (trino issue 25908).
///
/// Under Poisson arrivals of rate λ (no retries), with τ = 1/rate and ρ = λτ, a token is missing
/// exactly when the bucket's deficit, read as the work of an M/D/1 queue with service time τ, is
/// above (B - 1) τ. Its distribution up to there is the unbounded queue's, unnormalised: F(0) = 1,
/// F'(w) = λ (F(w) - F(w - τ)), F = 0 below 0 (so F = e^(λw) on [0, τ)). With G = F((B - 1) τ),
/// balancing the work admitted against the work done gives
/// ```
/// P(throttled) = 1 - G / (1 + ρ G)          accepted rate = λ G / (1 + ρ G)
/// ```
/// B = 1 gives G = 1: P(throttled) = ρ / (1 + ρ) (after each success, a dead time τ). As B grows the
/// accepted rate tends to min(λ, rate). ``throttledShare(arrivalRate:)`` integrates F on a grid
/// (Richardson-extrapolated; within 1e-9 of the M/D/1 series where that is exact enough to tell).
/// With a share F, each arrival goes to the limit with probability F independently of the arrival
/// times, so the limit sees Poisson arrivals of λF: ``overallThrottledShare(arrivalRate:)`` is
/// F P(throttled at λF).
public struct RateLimit: Hashable, Sendable {
    /// Tokens a second.
    public let rate: Double
    /// The bucket's size, in tokens.
    public let burst: Int
    /// The share of the clients that send to this limit; the others' attempts are not limited.
    public let share: Double

    public init(rate: Double, burst: Int = 1, share: Double = 1) {
        self.rate = rate
        self.burst = burst
        self.share = share
    }

    /// The stationary share of all attempts throttled under Poisson arrivals of `arrivalRate` a
    /// second, a share F of which reach the limit: F P(throttled at F λ).
    public func overallThrottledShare(arrivalRate lambda: Double) -> Double? {
        throttledShare(arrivalRate: lambda * share).map { share * $0 }
    }

    /// The stationary share of attempts throttled under Poisson arrivals of `arrivalRate` a second;
    /// `nil` past 10^4 tokens of burst (the integration's length, 4,096 steps a token).
    public func throttledShare(arrivalRate lambda: Double) -> Double? {
        guard lambda > 0 else { return 0 }
        guard burst <= 10_000 else { return nil }
        let tau = 1 / rate
        let g = Self.unnormalisedDistribution(lambda: lambda, tau: tau, at: burst - 1)
        if !g.isFinite { return 1 - 1 / (lambda * tau) }  // G beyond Double: the limit 1 - 1/ρ of ρ > 1
        return max(0, 1 - g / (1 + lambda * tau * g))
    }

    /// F((B - 1) τ) for F' = λ (F - F(· - τ)), F(0) = 1: integrated with 2,048 and 4,096 steps a
    /// period, whose O(h²) errors Richardson's extrapolation cancels, (4 F_4096 - F_2048) / 3.
    static func unnormalisedDistribution(lambda: Double, tau: Double, at periods: Int) -> Double {
        let (coarse, fine) = (
            integrate(lambda: lambda, tau: tau, periods: periods, steps: 2_048),
            integrate(lambda: lambda, tau: tau, periods: periods, steps: 4_096)
        )
        return (4 * fine - coarse) / 3
    }

    /// F((B - 1) τ) by steps of h = τ/`steps`: over a step, F(w + h) = e^(λh) F(w) - g0 (e^(λh) - 1)
    /// - (g1 - g0) (e^(λh) - 1 - λh)/(λh), exact when the delayed term F(w - τ + s) is linear between
    /// its grid values g0 and g1.
    static func integrate(lambda: Double, tau: Double, periods: Int, steps: Int) -> Double {
        let h = tau / Double(steps)
        let x = lambda * h
        let growth = exp(x)
        let a = expm1(x)
        // (e^x - 1 - x)/x, by its series where x is small.
        let b = x < 1e-4 ? x / 2 + x * x / 6 + x * x * x / 24 : (expm1(x) - x) / x
        guard periods > 0 else { return 1 }
        var previous = (0...steps).map { i in exp(lambda * h * Double(i)) }  // F on [0, τ], exactly
        var current = [Double](repeating: 0, count: steps + 1)
        for _ in 1..<periods {
            current[0] = previous[steps]
            for i in 0..<steps {
                let (g0, g1) = (previous[i], previous[i + 1])
                current[i + 1] = growth * current[i] - g0 * a - (g1 - g0) * b
            }
            swap(&previous, &current)
        }
        return previous[steps]  // F on the period that ends at (B - 1) τ
    }
}
