import BackoffPolicies
import EventSimulation
import Testing

@testable import RetrySimulation

/// Servers that answer at once are run client by client, without the event queue, and plain herds
/// without the session state machine; every client draws from its own stream, so every path that
/// applies to a scenario must give the very same report as the event-ordered run.
@Suite struct EngineAgreementTests {
    static func policy(_ jitter: Jitter, maxElapsed: Duration? = nil) throws -> BackoffPolicy {
        try BackoffPolicy(
            base: .milliseconds(100), cap: .seconds(2), jitter: jitter, budget: .maxAttempts(6), maxElapsed: maxElapsed)
    }

    static let end = VirtualTime(nanoseconds: 1_500_000_000)

    static let scenarios: [(String, @Sendable () throws -> Scenario)] = [
        (
            "outage burst",
            {
                try Scenario(
                    clients: 3000, server: .outage(until: end), policy: policy(.full), bucketWidth: .milliseconds(10))
            }
        ),
        (
            "bernoulli sessions",
            {
                try Scenario(
                    clients: 800, server: .bernoulli(failureProbability: 0.6, retryAfter: .fixed(.milliseconds(300))),
                    policy: policy(.decorrelated()), bucketWidth: .milliseconds(10),
                    arrivals: .uniform(window: .seconds(2)),
                    permanentFraction: 0.1, retryAfter: .max, requestsPerClient: 4, thinkTime: .milliseconds(50),
                    onGiveUp: .continue)
            }
        ),
        (
            "outage recovery trigger",
            {
                try Scenario(
                    clients: 1500, server: .outage(until: end, retryAfter: .untilRecovery),
                    policy: policy(.equal, maxElapsed: .seconds(1)),
                    bucketWidth: .milliseconds(5), arrivals: .poisson(ratePerSecond: 2000, duration: .seconds(1)),
                    retryTrigger: .recovery(notificationDelay: .milliseconds(20)), requestsPerClient: 2)
            }
        ),
        (
            "always-fail end-session",
            {
                try Scenario(
                    clients: 500, server: .alwaysFail, policy: policy(.disabled), bucketWidth: .milliseconds(10),
                    requestsPerClient: 3)
            }
        ),
        // Plain herds: one request per client, every jitter mode, each way a request ends.
        (
            "plain herd, outage, decorrelated",
            {
                try Scenario(
                    clients: 3000, server: .outage(until: end), policy: policy(.decorrelated()),
                    bucketWidth: .milliseconds(10))
            }
        ),
        (
            "plain herd, bernoulli, equal, time limit, uniform arrivals",
            {
                try Scenario(
                    clients: 2000, server: .bernoulli(failureProbability: 0.7),
                    policy: policy(.equal, maxElapsed: .milliseconds(700)),
                    bucketWidth: .milliseconds(1), arrivals: .uniform(window: .seconds(1)))
            }
        ),
        (
            "plain herd, always-fail, no jitter",
            {
                try Scenario(
                    clients: 700, server: .alwaysFail, policy: policy(.disabled), bucketWidth: .milliseconds(10))
            }
        ),
        (
            "plain herd, Retry-After sent but ignored",
            {
                try Scenario(
                    clients: 1500, server: .outage(until: end, retryAfter: .untilRecovery), policy: policy(.full),
                    bucketWidth: .milliseconds(10),
                    arrivals: .poisson(ratePerSecond: 3000, duration: .milliseconds(500)), retryAfter: .ignore)
            }
        ),
        // Event-ordered only, with and without reusing ended sessions' slots: timed-out attempts
        // served later (their service drawn from their session's stream), rejections, drops.
        (
            "capacity, Poisson overload, timeouts and wasted work",
            {
                try Scenario(
                    clients: 1,
                    server: .capacity(
                        CapacityModel(
                            workers: 3, serviceTime: .exponential(mean: .milliseconds(20)), queueLimit: 40,
                            degradation: .init(
                                start: VirtualTime(nanoseconds: 500_000_000),
                                end: VirtualTime(nanoseconds: 1_500_000_000),
                                fraction: 0.3))),
                    policy: policy(.full), bucketWidth: .milliseconds(10),
                    arrivals: .poisson(ratePerSecond: 120, duration: .seconds(3)), permanentFraction: 0.05,
                    requestsPerClient: 2, thinkTime: .milliseconds(30), attemptTimeout: .milliseconds(60))
            }
        ),
        (
            "capacity, drops expired, quota budget, uniform arrivals",
            {
                try Scenario(
                    clients: 600,
                    server: .capacity(
                        CapacityModel(
                            workers: 2,
                            serviceTime: .lognormal(mean: .milliseconds(15), standardDeviation: .milliseconds(30)),
                            queueLimit: 25, rejectionRetryAfter: .milliseconds(200), dropsExpired: true)),
                    policy: policy(.equal), bucketWidth: .milliseconds(10), arrivals: .uniform(window: .seconds(2)),
                    retryAfter: .max, attemptTimeout: .milliseconds(80),
                    limits: RetryLimits(budget: .quota(.awsStandard)))
            }
        ),
        (
            "capacity burst, sessions continue past give-ups",
            {
                try Scenario(
                    clients: 1500,
                    server: .capacity(
                        CapacityModel(workers: 8, serviceTime: .deterministic(.milliseconds(5)), queueLimit: 100)),
                    policy: policy(.decorrelated()), bucketWidth: .milliseconds(10), requestsPerClient: 3,
                    onGiveUp: .continue, attemptTimeout: .milliseconds(100))
            }
        ),
        // Servers that answer at once, made event-ordered by shared limits: their slots are reused
        // too, and compared with a run that keeps them.
        (
            "bernoulli, token budget and breaker, Poisson sessions",
            {
                try Scenario(
                    clients: 1, server: .bernoulli(failureProbability: 0.6, retryAfter: .fixed(.milliseconds(40))),
                    policy: policy(.full), bucketWidth: .milliseconds(10),
                    arrivals: .poisson(ratePerSecond: 1500, duration: .seconds(2)), permanentFraction: 0.05,
                    retryAfter: .max, requestsPerClient: 3, thinkTime: .milliseconds(20), onGiveUp: .continue,
                    limits: RetryLimits(
                        budget: .tokenBucket(try TokenBucketBudget(maxTokens: 10, tokenRatio: 0.1)),
                        breaker: try CircuitBreaker(
                            failureThreshold: 0.7, minimumRequests: 20, window: .seconds(1),
                            openDuration: .milliseconds(100))))
            }
        ),
        (
            "outage, adaptive throttle, recovery trigger, uniform arrivals",
            {
                try Scenario(
                    clients: 900, server: .outage(until: end, retryAfter: .untilRecovery),
                    policy: policy(.decorrelated()), bucketWidth: .milliseconds(10),
                    arrivals: .uniform(window: .seconds(1)),
                    retryTrigger: .recovery(notificationDelay: .milliseconds(20)), requestsPerClient: 2,
                    limits: RetryLimits(throttle: try AdaptiveThrottle(k: 1.5)))
            }
        ),
    ]

    @Test(arguments: 0..<scenarios.count)
    func everyApplicablePathGivesTheSameReport(case index: Int) throws {
        let (name, make) = Self.scenarios[index]
        let scenario = try make()
        let paths = ScenarioPath.applicable(to: scenario)
        // Sessions, permanent errors, Retry-After honoured and the recovery trigger need the state machine.
        // A run that reuses slots is compared with a run that keeps them.
        #expect(paths.count == [3, 2, 2, 2, 3, 3, 3, 3, 2, 2, 2, 2, 2][index], "\(name): \(paths)")
        for seed: UInt64 in [1, 99] {
            let reference = try scenario.run(seed: seed, arrivalSeed: nil, algorithm: .standard, path: paths[0])
            #expect(reference.attempts > 0)
            for path in paths.dropFirst() {
                let report = try scenario.run(seed: seed, arrivalSeed: nil, algorithm: .standard, path: path)
                #expect(report == reference, "\(name), \(path), seed \(seed)")
            }
        }
    }

    /// The default is the fastest path that applies.
    @Test func aScenarioRunsOnItsFastestPath() throws {
        let herd = try Self.scenarios[4].1()
        #expect(ScenarioPath.applicable(to: herd).last == .plainHerd)
        #expect(try herd.run(seed: 5) == herd.run(seed: 5, arrivalSeed: nil, algorithm: .standard, path: .plainHerd))
        let sessions = try Self.scenarios[1].1()
        #expect(ScenarioPath.applicable(to: sessions).last == .clientByClient)
    }
}

/// Beyond the exact-quantile limit a run streams its total waits (exact integer sums and a sketch),
/// which do not depend on the order the requests end in: every path, every thread count and every
/// chunk size gives the very same report, and it agrees with the exact one.
@Suite struct StreamedTotalWaitTests {
    /// Streamed on every path (the limit set to 0), with 1 to 3 threads in chunks of 1,048,576, 100
    /// and 77 clients: one report. Against the exact report: the same counts and timeline, the
    /// same extremes, the mean to rounding (1e-12, relatively: both are sums of at most 12,000
    /// values), the standard deviation to 1e-9 of the mean, and the quantiles within the sketch's
    /// α = 0.1 %.
    @Test(arguments: 0..<8)
    func everyPathAndThreadCountGivesOneReport(case index: Int) throws {
        let (name, make) = EngineAgreementTests.scenarios[index]
        let scenario = try make()
        let seed: UInt64 = 7
        let exact = try scenario.run(seed: seed, arrivalSeed: nil, algorithm: .standard, path: .eventOrdered)
        let streamed = try scenario.run(
            seed: seed, arrivalSeed: nil, algorithm: .standard, path: .eventOrdered, exactQuantileLimit: 0)
        #expect(exact.totalWait.quantilesAreExact && !streamed.totalWait.quantilesAreExact)
        for path in ScenarioPath.applicable(to: scenario) {
            for (jobs, chunk) in [(1, Scenario.clientChunk), (2, 100), (3, 77)] {
                let report = try scenario.run(
                    seed: seed, arrivalSeed: nil, algorithm: .standard, path: path, jobs: jobs, exactQuantileLimit: 0,
                    clientChunk: chunk)
                #expect(report == streamed, "\(name), \(path), \(jobs) jobs, chunks of \(chunk), seed \(seed)")
            }
        }
        #expect(streamed.attempts == exact.attempts && streamed.successes == exact.successes, "\(name)")
        #expect(streamed.giveUps == exact.giveUps && streamed.requestsLost == exact.requestsLost, "\(name)")
        #expect(streamed.timeline == exact.timeline && streamed.waits == exact.waits, "\(name)")
        #expect(streamed.meanCompletion == exact.meanCompletion, "\(name)")
        #expect(streamed.attemptsStandardError == exact.attemptsStandardError, "\(name)")
        let (s, e) = (streamed.totalWait, exact.totalWait)
        #expect(s.count == e.count && s.minimum == e.minimum && s.maximum == e.maximum, "\(name)")
        #expect(abs(s.mean - e.mean) <= 1e-12 * e.mean, "\(name): \(s.mean) vs \(e.mean)")
        #expect(
            abs(s.standardDeviation - e.standardDeviation) <= 1e-9 * e.mean,
            "\(name): \(s.standardDeviation) vs \(e.standardDeviation)")
        for p in [0.5, 0.99] {
            let (sketched, sample) = (s.quantile(p)!, e.quantile(p)!)
            #expect(abs(sketched - sample) <= 0.001 * sample, "\(name), p = \(p): \(sketched) vs \(sample)")
        }
    }

    /// A burst of clients that do not interact may outnumber an event-ordered run's limit, up to
    /// 2^40; any other run may not. The estimate is constant in the clients here; that the run's
    /// memory is too, `scripts/bench --memory-check` measures (a burst of 2^26 clients, its peak
    /// resident memory against this estimate).
    @Test func onlyIndependentBurstsGoPastTheClientLimit() throws {
        let policy = try EngineAgreementTests.policy(.full)
        let outage = ServerModel.outage(until: EngineAgreementTests.end)
        let billion = try Scenario(clients: 1 << 30, server: outage, policy: policy, bucketWidth: .milliseconds(10))
        let fewer = try Scenario(clients: 1 << 25, server: outage, policy: policy, bucketWidth: .milliseconds(10))
        // Constant in the clients: load buckets and four sketches of at most 252 KiB each.
        #expect(billion.runsClientByClient && billion.memoryEstimate.bytes < 2 * 1_048_576)
        #expect(billion.memoryEstimate.bytes == fewer.memoryEstimate.bytes)
        #expect(throws: SimulationError.tooManyClients(1 << 30)) {
            try Scenario(
                clients: 1 << 30, server: outage, policy: policy, bucketWidth: .milliseconds(10),
                arrivals: .uniform(window: .seconds(1)))
        }
        #expect(throws: SimulationError.tooManyClients(1 << 30)) {
            try Scenario(
                clients: 1 << 30, server: outage, policy: policy, bucketWidth: .milliseconds(10),
                limits: RetryLimits(budget: .concurrency(ConcurrencyBudget(budgetPercent: 0.2, minRetryConcurrency: 3)))
            )
        }
        #expect(throws: SimulationError.tooManyClients((1 << 40) + 1)) {
            try Scenario(clients: (1 << 40) + 1, server: outage, policy: policy, bucketWidth: .milliseconds(10))
        }
    }
}
