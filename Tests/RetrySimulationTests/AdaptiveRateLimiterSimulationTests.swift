import BackoffPolicies
import EventSimulation
import Testing

@testable import RetrySimulation

/// The AWS adaptive rate limiter in `simulate` (`--throttle aws-adaptive`): what enables it, what it
/// costs, and its scopes. (Its every state is botocore's: scripts/conformance, which also compares a
/// whole client against botocore's.)
@Suite struct AdaptiveRateLimiterSimulationTests {
    static let seed: UInt64 = 20_261_203

    func report(
        server: ServerModel, limiter: RateLimiterScope?, sdk: RateLimiterSDK = .botocore, clients: Int = 1,
        requests: Int = 400, failureKind: FailureKind = .transient, maxAttempts: Int = 3
    ) throws -> ScenarioReport {
        let policy = try BackoffPolicy(
            base: .seconds(1), schedule: .exponential(multiplier: 2), cap: .seconds(20), jitter: .full,
            budget: .maxAttempts(maxAttempts))
        let scenario = try Scenario(
            clients: clients, server: server, policy: policy, bucketWidth: .seconds(1), requestsPerClient: requests,
            onGiveUp: .continue,
            limits: RetryLimits(rateLimiter: limiter.map { AdaptiveRateLimiting(sdk: sdk, scope: $0) }),
            failureKind: failureKind)
        return try scenario.run(seed: Self.seed)
    }

    /// Against a rate limit of 10/s a client sending back to back is throttled; with the limiter
    /// after its first throttle it waits for tokens instead, and is throttled less per request.
    @Test func theLimiterTradesThrottlesForTokenWaits() throws {
        let limit = ServerModel.rateLimit(RateLimit(rate: 10))
        let plain = try report(server: limit, limiter: nil)
        let limited = try report(server: limit, limiter: .shared)
        #expect(plain.tokenWaits == 0 && plain.tokenWaitTotal == 0)
        #expect(limited.tokenWaits > 0 && limited.tokenWaitTotal > 0)
        let throttlesPerRequest = { (r: ScenarioReport) in Double(r.attempts - r.successes) / Double(r.uniqueRequests) }
        #expect(
            throttlesPerRequest(limited) < throttlesPerRequest(plain),
            "seed \(Self.seed): \(throttlesPerRequest(limited)) against \(throttlesPerRequest(plain))")
    }

    /// botocore turns the limiter on at the first throttling response only: transient failures (an
    /// outage) never make a request wait for a token; the same outage answered with throttling
    /// errors does.
    @Test func onlyAThrottleTurnsTheLimiterOn() throws {
        let outage = ServerModel.outage(until: VirtualTime(.seconds(5)))
        let transient = try report(server: outage, limiter: .shared, clients: 200, requests: 1)
        #expect(transient.tokenWaits == 0)
        let throttled = try report(
            server: outage, limiter: .shared, clients: 200, requests: 1, failureKind: .throttling)
        #expect(throttled.tokenWaits > 0)
    }

    /// One client has one limiter either way: the scopes give the same report.
    @Test func oneClientIsTheSameWhicheverTheScope() throws {
        let limit = ServerModel.rateLimit(RateLimit(rate: 5, burst: 2))
        let shared = try report(server: limit, limiter: .shared, requests: 200)
        let own = try report(server: limit, limiter: .perClient, requests: 200)
        #expect(shared.attempts == own.attempts && shared.successes == own.successes)
        #expect(shared.tokenWaitTotal == own.tokenWaitTotal && shared.lastCompletion == own.lastCompletion)
    }

    /// Many clients sharing one limiter wait more for tokens than each with its own: the shared
    /// limiter's fill rate is the whole fleet's.
    @Test func aSharedLimiterHoldsTheFleetToOneRate() throws {
        let limit = ServerModel.rateLimit(RateLimit(rate: 20, burst: 5))
        let shared = try report(server: limit, limiter: .shared, clients: 20, requests: 50)
        let own = try report(server: limit, limiter: .perClient, clients: 20, requests: 50)
        #expect(shared.tokenWaitTotal > own.tokenWaitTotal, "\(shared.tokenWaitTotal) against \(own.tokenWaitTotal)")
    }

    /// smithy-swift and Java v2 hear only of the throttles they retry (and final successes): with
    /// no retries at all (one attempt per request), a throttling server never turns their limiter
    /// on, while botocore's and Go v2's, fed every answer, wait for tokens. With retries all four do.
    @Test func onlyRetriedThrottlesTurnJavaAndSmithyLimitersOn() throws {
        let limit = ServerModel.rateLimit(RateLimit(rate: 10))
        for sdk in RateLimiterSDK.allCases {
            let once = try report(server: limit, limiter: .shared, sdk: sdk, requests: 200, maxAttempts: 1)
            let feedsEveryAnswer = sdk.feed == .everyAnswer
            #expect((once.tokenWaits > 0) == feedsEveryAnswer, "\(sdk), one attempt: \(once.tokenWaits) token waits")
            let retried = try report(server: limit, limiter: .shared, sdk: sdk, requests: 200)
            #expect(retried.tokenWaits > 0, "\(sdk), three attempts")
        }
    }

    /// Java v2's token waits are whole milliseconds; the others' are not.
    @Test func javaWaitsWholeMillisecondsForTokens() throws {
        let limit = ServerModel.rateLimit(RateLimit(rate: 10))
        for sdk in [RateLimiterSDK.javaV2, .goV2] {
            let run = try report(server: limit, limiter: .shared, sdk: sdk, requests: 300)
            let milliseconds = run.tokenWaitTotal * 1e3
            #expect(run.tokenWaits > 0)
            let whole = abs(milliseconds - milliseconds.rounded()) < 1e-6
            #expect(whole == (sdk == .javaV2), "\(sdk): \(milliseconds) ms of token waits")
        }
    }

    /// A request's total wait counts its waits for tokens: with one attempt a request (no backoff at
    /// all) the total waits add up to the token waits, to rounding, whatever order the waiters are
    /// served in (each SDK's, shared by 5 clients).
    @Test(arguments: RateLimiterSDK.allCases) func aRequestsTotalWaitIncludesItsTokenWaits(sdk: RateLimiterSDK) throws {
        let limit = ServerModel.rateLimit(RateLimit(rate: 10))
        let run = try report(server: limit, limiter: .shared, sdk: sdk, clients: 5, requests: 200, maxAttempts: 2)
        #expect(run.tokenWaitTotal > 1, "\(sdk): no token waits: the test tests nothing")
        let single = try report(server: limit, limiter: .shared, sdk: sdk, clients: 5, requests: 200, maxAttempts: 1)
        if sdk.feed == .everyAnswer {
            let sum = single.totalWait.mean * Double(single.uniqueRequests)
            #expect(
                abs(sum - single.tokenWaitTotal) <= 1e-9 * single.tokenWaitTotal,
                "\(sdk): \(sum) against \(single.tokenWaitTotal)")
        }
        #expect(run.totalWait.mean * Double(run.uniqueRequests) >= run.tokenWaitTotal * (1 - 1e-12))
    }

    /// The waiting order matters when many share one limiter: botocore's condition variable sends
    /// a woken waiter that finds no token to the back of the line, which spreads the token waits
    /// (a longer tail) where Go's independent sleepers, on the same arrivals and limiter, do not.
    @Test func botocoresWakeUpsLengthenTheTail() throws {
        let limit = ServerModel.rateLimit(RateLimit(rate: 10))
        let botocore = try report(server: limit, limiter: .shared, sdk: .botocore, clients: 50, requests: 12)
        let go = try report(server: limit, limiter: .shared, sdk: .goV2, clients: 50, requests: 12)
        #expect(botocore.successes == go.successes)
        let (p99, goP99) = (try #require(botocore.totalWait.quantile(0.99)), try #require(go.totalWait.quantile(0.99)))
        #expect(p99 > 1.2 * goP99, "seed \(Self.seed): p99 \(p99) against \(goP99)")
    }

    /// One shared SDK client whose requests reach a throttled resource and an unthrottled one
    /// (`ratelimit:2/s:share=0.1`, trino issue 25908): the throttles of the tenth of the clients
    /// that reach the limit slow every client's sends under a shared limiter, and far less when
    /// each client has its own.
    @Test func aSharedLimiterSpreadsOneResourcesThrottlesToAll() throws {
        let limit = ServerModel.rateLimit(RateLimit(rate: 2, share: 0.1))
        let shared = try report(server: limit, limiter: .shared, clients: 50, requests: 20)
        let own = try report(server: limit, limiter: .perClient, clients: 50, requests: 20)
        let none = try report(server: limit, limiter: nil, clients: 50, requests: 20)
        #expect(none.tokenWaits == 0)
        #expect(
            shared.tokenWaitTotal > 4 * own.tokenWaitTotal,
            "seed \(Self.seed): shared \(shared.tokenWaitTotal) s against per-client \(own.tokenWaitTotal) s")
        #expect(shared.meanCompletion > 4 * own.meanCompletion && own.meanCompletion > none.meanCompletion)
    }

    /// The memory estimate counts what the limits hold per client: 16 bytes of token-wait counters,
    /// a generation for a shared botocore or Java limiter's waiters, each client's own limiter in
    /// per-client scope.
    @Test func theMemoryEstimateCountsTheLimitersState() throws {
        let policy = try BackoffPolicy(budget: .maxAttempts(3))
        func estimate(_ limiter: AdaptiveRateLimiting?) throws -> Double {
            try Scenario(
                clients: 1_000, server: .rateLimit(RateLimit(rate: 10)), policy: policy, bucketWidth: .seconds(1),
                limits: RetryLimits(rateLimiter: limiter)
            ).memoryEstimate.bytes
        }
        let plain = try estimate(nil)
        let cases: [(AdaptiveRateLimiting, Int)] = [
            (AdaptiveRateLimiting(sdk: .goV2, scope: .shared), 16),
            (AdaptiveRateLimiting(sdk: .botocore, scope: .shared), 20),
            (AdaptiveRateLimiting(sdk: .botocore, scope: .perClient), 16 + MemoryLayout<AdaptiveRateLimiter?>.stride),
        ]
        for (limiter, bytes) in cases {
            let extra = try estimate(limiter) - plain
            #expect(abs(extra - Double(1_000 * bytes)) < 1e-6, "\(limiter): \(extra) bytes more")
        }
    }
}
