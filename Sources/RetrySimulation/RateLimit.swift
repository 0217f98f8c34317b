import BackoffPolicies
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
public struct RateLimit: ServerComponent {
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

    public static let name = "ratelimit"
    public static let usage = "ratelimit:R"
    public static let form =
        "ratelimit:RATE[:burst=B][:share=F] (RATE > 0 a second or a minute, e.g. 10/s or 600/m; B >= 1 whole "
        + "tokens, default 1; F the share of clients limited, 0 < F <= 1, default 1)"
    public static let help = [
        "A token bucket shared by all clients: R tokens a second (10/s, 600/m), at most",
        "B of them (:burst=B, default 1), full at the start. An attempt that finds a",
        "whole token takes it and succeeds; any other fails at once with a throttling",
        "error (so --failure-kind is throttling, and a preset follows its throttling",
        "rule). With :share=F (0 < F <= 1) only that share of the clients, drawn",
        "once each, send to the bucket; the others' attempts succeed, as one SDK",
        "client's requests reach a throttled resource and unthrottled ones. With",
        "Poisson arrivals and one attempt, formula_successes is the stationary share",
        "admitted: 1 - F P(throttled at F x the arrival rate).",
    ]

    /// `RATE[:burst=B][:share=F]`, RATE a number per second or per minute (`10/s`, `600/m`); the
    /// ranges are ``validate()``'s to check.
    public init?(parameters: String?) {
        guard let parts = parameters?.split(separator: ":", omittingEmptySubsequences: false) else { return nil }
        var burst: Int?
        var share: Double?
        for part in parts.dropFirst() {
            if part.hasPrefix("burst="), burst == nil, let b = Int(part.dropFirst("burst=".count)) {
                burst = b
            } else if part.hasPrefix("share="), share == nil, let f = Self.number(part.dropFirst("share=".count)) {
                share = f
            } else {
                return nil
            }
        }
        let per: Double
        switch parts[0].suffix(2) {
        case "/s": per = 1
        case "/m": per = 60
        default: return nil
        }
        guard let count = Self.number(parts[0].dropLast(2)) else { return nil }
        self.init(rate: count / per, burst: burst ?? 1, share: share ?? 1)
    }

    /// A finite decimal number, as every numeric option reads one (no hexadecimal).
    private static func number(_ text: Substring) -> Double? {
        guard let value = Double(text), value.isFinite, !text.lowercased().hasPrefix("0x") else { return nil }
        return value
    }

    public var specText: String {
        "ratelimit:\(rate.decimalText)/s" + (burst == 1 ? "" : ":burst=\(burst)")
            + (share == 1 ? "" : ":share=\(share.decimalText)")
    }

    public func validate() throws(SimulationError) {
        guard rate.isFinite, rate > 0 else { throw .invalidRateLimit(rate) }
        guard burst >= 1 else { throw .invalidBurst(burst) }
        guard share > 0, share <= 1 else { throw .invalidLimitedShare(share) }
    }

    /// Every failure is a throttling error.
    public var failureKind: FailureKind? { .throttling }

    /// Under Poisson arrivals of one request per client, one attempt each, no shared limits and
    /// no permanent errors: every client makes one attempt, waits nothing, and succeeds with the
    /// share admitted, 1 − ``overallThrottledShare(arrivalRate:)``.
    public func closedForm(in scenario: Scenario) -> (
        attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double
    )? {
        guard case .poisson(let rate, _) = scenario.arrivals, scenario.policy.maxAttempts == 1,
            scenario.limits.isEmpty, scenario.requestsPerClient == 1, scenario.permanentFraction == 0
        else { return nil }
        return overallThrottledShare(arrivalRate: rate).map { (1, 0, 1 - $0) }
    }

    public func run(on runner: ServerRunner) throws -> ScenarioReport { try runner.run(RateLimitServer.self) }

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
