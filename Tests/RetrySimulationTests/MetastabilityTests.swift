import BackoffPolicies
import EventSimulation
import RetrySimulation
import Testing

/// An overload that sustains itself: Poisson clients at 80 % of capacity (4 workers x 4 ms = 1,000
/// per second), capacity down to 30 % for 2 s, a 200 ms attempt timeout and a queue long enough for
/// waits beyond it. Plain retries keep the queue full of work nobody waits for after the trigger
/// ends; a retry budget lets it drain.
@Suite struct MetastabilityTests {
    static let seed: UInt64 = 2015

    static func scenario(limits: RetryLimits) throws -> Scenario {
        let policy = try BackoffPolicy(
            base: .milliseconds(10), cap: .seconds(5), jitter: .full, budget: .maxAttempts(10))
        let window = CapacityModel.Degradation(
            start: VirtualTime(nanoseconds: 5_000_000_000), end: VirtualTime(nanoseconds: 7_000_000_000), fraction: 0.3)
        return try Scenario(
            clients: 1,
            server: .capacity(
                CapacityModel(
                    workers: 4, serviceTime: .deterministic(.milliseconds(4)), queueLimit: 1000, degradation: window)),
            policy: policy, bucketWidth: .milliseconds(100),
            arrivals: .poisson(ratePerSecond: 800, duration: .seconds(20)),
            attemptTimeout: .milliseconds(200), limits: limits)
    }

    func recovery(_ report: ScenarioReport) -> Int64? {
        report.timeline.recoveryTime(
            triggerStart: VirtualTime(nanoseconds: 5_000_000_000), triggerEnd: VirtualTime(nanoseconds: 7_000_000_000))
    }

    /// Measured with this seed: plain retries end with goodput near 120 per second, far below the
    /// 800 offered (the margin to the 90 % recovery rule is wide), and never recover; with gRPC's
    /// token bucket (or the AWS quota) goodput is back within 4 s of the trigger's end.
    @Test func plainRetriesStayStuckAndATokenBucketRecovers() throws {
        let plain = try Self.scenario(limits: RetryLimits()).run(seed: Self.seed)
        #expect(recovery(plain) == nil, "seed \(Self.seed): plain retries recovered")
        #expect(plain.goodput < 400, "seed \(Self.seed): goodput \(plain.goodput)")
        #expect(plain.wastedWork > 1000)

        for budget in [RetryBudget.tokenBucket(.grpcExample), .quota(.awsStandard)] {
            let limited = try Self.scenario(limits: RetryLimits(budget: budget)).run(seed: Self.seed)
            let time = try #require(recovery(limited), "seed \(Self.seed): \(budget.name) did not recover")
            #expect(time <= 6_000_000_000, "seed \(Self.seed): \(budget.name) took \(time) ns")
            #expect(limited.goodput > 500 && limited.budgetDenials > 0)
        }
    }

    /// A breaker against a server that always fails, 1,000 clients at t = 0, no jitter: it admits
    /// exactly its 20 minimum requests (20 failures of 20 >= 0.5 open it), refuses the other 980
    /// first attempts, and still refuses the 20 clients' retries at 100 ms (it stays open 500 ms); a
    /// refusal ends its request. So 20 attempts and 1,000 local rejections, exactly.
    @Test func aBreakerAdmitsItsMinimumAndThenRefuses() throws {
        let breaker = try CircuitBreaker(
            failureThreshold: 0.5, minimumRequests: 20, window: .seconds(1), openDuration: .milliseconds(500), probes: 3
        )
        let policy = try BackoffPolicy(base: .milliseconds(100), jitter: .disabled, budget: .maxAttempts(5))
        let scenario = try Scenario(
            clients: 1000, server: .alwaysFail, policy: policy, bucketWidth: .milliseconds(10),
            limits: RetryLimits(breaker: breaker))
        let report = try scenario.run(seed: 1)
        #expect(
            report.attempts == 20 && report.localRejections == 1000,
            "attempts \(report.attempts), rejections \(report.localRejections)")
    }

    /// The SRE book's throttle (K = 2) against a server that always fails, 1,000 clients at t = 0:
    /// request n (0-based) meets n earlier requests and no accept, so it goes with probability
    /// 1/(n + 1); the sent count of a run has mean H_1000 = 7.4855 and variance
    /// Σ (1/(n+1))(1 − 1/(n+1)) = H_1000 − Σ 1/(n+1)² = 5.8416 (the sent clients' retries at 100 ms
    /// go with probability below 1/1000 each, adding under 0.01). Over 40 seeded runs the mean's
    /// standard error is √(5.8416/40) = 0.382, so it lies within 4 × 0.382 = 1.53 of 7.4855; a ratio
    /// of n/(n + 2) (mean 12.97) fails.
    @Test func aThrottleSendsTheHarmonicNumberOfRequests() throws {
        let throttle = try AdaptiveThrottle(k: 2, window: .seconds(10))
        let policy = try BackoffPolicy(base: .milliseconds(100), jitter: .disabled, budget: .maxAttempts(5))
        let scenario = try Scenario(
            clients: 1000, server: .alwaysFail, policy: policy, bucketWidth: .milliseconds(10),
            limits: RetryLimits(throttle: throttle))
        let seeds: [UInt64] = Array(1...40)
        var total = 0
        for seed in seeds {
            let report = try scenario.run(seed: seed)
            #expect(report.attempts + report.localRejections >= 1000)
            total += report.attempts
        }
        let mean = Double(total) / Double(seeds.count)
        #expect(abs(mean - 7.4855) <= 1.53, "seeds 1...40: mean sent \(mean)")
    }

    @Test func anOpenBreakerRejectsLocallyAndAThrottleSheds() throws {
        let breaker = try CircuitBreaker(
            failureThreshold: 0.5, minimumRequests: 20, window: .seconds(1), openDuration: .milliseconds(500), probes: 3
        )
        let broken = try Self.scenario(limits: RetryLimits(breaker: breaker)).run(seed: Self.seed)
        #expect(broken.localRejections > 0)
        let throttled = try Self.scenario(
            limits: RetryLimits(throttle: try AdaptiveThrottle(k: 2, window: .seconds(10)))
        ).run(seed: Self.seed)
        #expect(throttled.localRejections > 0)
    }
}

/// A token bucket inside the simulation: against a Bernoulli server, retries continue while the
/// failure fraction f is below r / (1 + r) = 1/11 (r = 0.1) and stop above it (see
/// TokenBucketBudget). Tested 5 % either side of the threshold, f = 0.0864 and 0.0955, with a
/// bucket of 100 tokens (threshold 50) so the walk's verdict is sharp: a step is −1 with
/// probability f and +r otherwise, drift d = −f + (1 − f) r = ±0.005 and variance
/// σ² = f(1 − f)(1 + r)² ≈ 0.1 per attempt. Below the threshold the walk, reflected at 100, sits
/// under 50 with probability about exp(−2 d · 50 / σ²) = exp(−5) ≈ 0.7 %: refused < 5 %. Above
/// it, the walk falls from 100 to 50 in about 50 / 0.005 = 10,000 of the run's ~120,000 attempts
/// and stays under with the same odds: refused ≈ 1 − 1/12 ≈ 0.92 of the retries asked, > 0.85.
/// (Measured with seed 5: 0 and 0.957. A token ratio 5 % off, 0.095 or 0.105, refuses 0.80 at the
/// lower fraction or 0.80 at the higher: both fail.) 120,000 Poisson requests, 4 attempts each.
@Suite struct TokenBucketInSimulationTests {
    @Test(arguments: [(0.0864, false), (0.0955, true)])
    func retriesStopAboveTheThreshold(failure: Double, throttled: Bool) throws {
        let seed: UInt64 = 5
        let policy = try BackoffPolicy(
            base: .milliseconds(10), cap: .seconds(1), jitter: .full, budget: .maxAttempts(4))
        let bucket = try TokenBucketBudget(maxTokens: 100, tokenRatio: 0.1)
        let scenario = try Scenario(
            clients: 1, server: .bernoulli(failureProbability: failure), policy: policy,
            bucketWidth: .milliseconds(100),
            arrivals: .poisson(ratePerSecond: 2000, duration: .seconds(60)),
            limits: RetryLimits(budget: .tokenBucket(bucket)))
        let report = try scenario.run(seed: seed)
        let retriesAsked = Double(report.attempts - report.uniqueRequests + report.budgetDenials)
        let refused = Double(report.budgetDenials) / max(1, retriesAsked)
        #expect(throttled ? refused > 0.85 : refused < 0.05, "seed \(seed), failure \(failure): refused \(refused)")
    }
}
