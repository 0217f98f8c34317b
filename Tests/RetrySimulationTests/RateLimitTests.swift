import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// The rate-limiting server and its closed form: the share of attempts a token bucket throttles
/// under Poisson arrivals.
@Suite struct RateLimitTests {
    static let seed: UInt64 = 20_261_202

    /// The integration against the M/D/1 series F(x) = Σ_{k <= x/τ} (λ(kτ - x))^k / k! e^(-λ(kτ - x)):
    /// F(0) = 1, F(τ) = e^ρ, F(2τ) = e^(2ρ) - ρ e^ρ, F(3τ) = e^(3ρ) - 2ρ e^(2ρ) + ρ²/2 e^ρ. And
    /// B = 1 throttles ρ / (1 + ρ): after each success, a dead time of τ.
    @Test(arguments: [0.3, 1.0, 2.5])
    func theIntegrationIsTheSeries(rho: Double) {
        let (lambda, tau) = (rho, 1.0)
        let series: [Double] = [
            1, exp(rho), exp(2 * rho) - rho * exp(rho),
            exp(3 * rho) - 2 * rho * exp(2 * rho) + rho * rho / 2 * exp(rho),
        ]
        for (periods, expected) in series.enumerated() {
            let value = RateLimit.unnormalisedDistribution(lambda: lambda, tau: tau, at: periods)
            #expect(abs(value - expected) <= 1e-9 * expected, "ρ \(rho), \(periods) τ: \(value) against \(expected)")
        }
        let share = RateLimit(rate: 1, burst: 1).throttledShare(arrivalRate: rho)!
        #expect(abs(share - rho / (1 + rho)) < 1e-15)
    }

    /// The share tends to max(0, 1 - 1/ρ) as the burst grows, and never rises with it.
    @Test func aLargerBucketThrottlesLessAndTendsToTheRatesShare() throws {
        for rho in [0.5, 0.9, 1.5, 3] {
            var previous = 1.0
            for burst in [1, 2, 5, 20, 200] {
                let share = try #require(RateLimit(rate: 10, burst: burst).throttledShare(arrivalRate: 10 * rho))
                #expect(share <= previous + 1e-12, "ρ \(rho), burst \(burst)")
                previous = share
            }
            #expect(abs(previous - max(0, 1 - 1 / rho)) < 0.01, "ρ \(rho): \(previous)")
        }
    }

    /// Simulated throttled shares against the closed form: 8 runs of a Poisson stream for 2,000 s
    /// each, one attempt per request. The runs are independent, so the standard error of their mean
    /// share is their standard deviation / √8; a run starts with a full bucket, which can admit at
    /// most B more requests than the stationary share, a bias of at most B / N. Tolerance: 4 SE + B/N.
    /// With a share F of the clients limited, the limit sees Poisson arrivals of F λ and the share
    /// of all attempts throttled is F P(throttled at F λ).
    @Test(arguments: [
        (10.0, 1, 20.0, 1.0), (10.0, 5, 8.0, 1.0), (10.0, 10, 15.0, 1.0), (4.0, 3, 4.0, 1.0), (10.0, 2, 30.0, 0.4),
        (1.0, 1, 5.0, 0.2),
    ])
    func simulationMatchesTheThrottledShare(rate: Double, burst: Int, lambda: Double, share: Double) throws {
        let limit = RateLimit(rate: rate, burst: burst, share: share)
        let formula = try #require(limit.overallThrottledShare(arrivalRate: lambda))
        let policy = try BackoffPolicy(budget: .maxAttempts(1))
        var shares: [Double] = []
        var arrivals = 0
        for run in 0..<8 {
            let scenario = try Scenario(
                clients: 1, server: .rateLimit(limit), policy: policy, bucketWidth: .seconds(1),
                arrivals: .poisson(ratePerSecond: lambda, duration: .seconds(2_000)))
            let report = try scenario.run(seed: Self.seed + UInt64(run))
            shares.append(1 - Double(report.successes) / Double(report.clients))
            arrivals = report.clients
        }
        let mean = shares.reduce(0, +) / 8
        let sd = (shares.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 7).squareRoot()
        let tolerance = 4 * sd / 8.0.squareRoot() + Double(burst) / Double(arrivals)
        #expect(
            abs(mean - formula) <= tolerance,
            "seed \(Self.seed): throttled share \(mean), formula \(formula), tolerance \(tolerance)")
        #expect(scenario(limit).failureKind == .throttling)
    }

    func scenario(_ limit: RateLimit) -> Scenario {
        try! Scenario(
            clients: 1, server: .rateLimit(limit), policy: try! BackoffPolicy(), bucketWidth: .seconds(1),
            failureKind: .transient)
    }
}
