import BackoffPolicies
import EventSimulation
import RetrySimulation
import Testing

/// Scenario features read as timelines with deterministic settings (no jitter, fixed service times),
/// so each expectation is exact.
@Suite struct ScenarioBehaviourTests {
    static let seed: UInt64 = 7

    func policy(attempts: Int = 5, jitter: Jitter = .disabled, maxElapsed: Duration? = nil) throws -> BackoffPolicy {
        try BackoffPolicy(
            base: .milliseconds(100), jitter: jitter, budget: .maxAttempts(attempts), maxElapsed: maxElapsed)
    }

    func at(_ milliseconds: Int64) -> VirtualTime { VirtualTime(nanoseconds: milliseconds * 1_000_000) }

    func capacity(workers: Int = 1, service: Int64, queue: Int, degradation: CapacityModel.Degradation? = nil)
        -> ServerModel
    {
        .capacity(
            CapacityModel(
                workers: workers, serviceTime: .deterministic(.milliseconds(service)), queueLimit: queue,
                degradation: degradation))
    }

    @Test func aFullQueueRejectsAtOnce() throws {
        // One worker (10 ms per attempt), no queue: of 10 clients at t = 0 one is served, nine are
        // rejected and retry at 100 ms, where again one is served: 1 + 1 + ... successes.
        let scenario = try Scenario(
            clients: 10, server: capacity(service: 10, queue: 0), policy: policy(attempts: 2),
            bucketWidth: .milliseconds(10))
        let report = try scenario.run(seed: Self.seed)
        #expect(report.rejected == 9 + 8)
        #expect(report.successes == 2 && report.giveUps == 8)
        #expect(report.timeline.rejected[0] == 9 && report.timeline.rejected[10] == 8)
        #expect(report.timeline.successes[1] == 1 && report.timeline.successes[11] == 1)
    }

    @Test func timedOutAttemptsAreStillServedAsWastedWork() throws {
        // One worker at 100 ms per attempt, three clients, a 50 ms timeout and one attempt each:
        // every client times out at 50 ms; the server then serves all three (done at 100, 200, 300 ms).
        let scenario = try Scenario(
            clients: 3, server: capacity(service: 100, queue: 10), policy: policy(attempts: 1),
            bucketWidth: .milliseconds(10),
            attemptTimeout: .milliseconds(50))
        let report = try scenario.run(seed: Self.seed)
        #expect(report.timeouts == 3 && report.wastedWork == 3 && report.successes == 0)
        #expect(report.peakQueue == 2)
        #expect(report.timeline.timeouts[5] == 3)
        #expect(report.lastCompletion == 0.05, "requests end when their client gives up")
    }

    @Test func anAnswerAtTheDeadlineBeatsTheTimeout() throws {
        let scenario = try Scenario(
            clients: 1, server: capacity(service: 50, queue: 0), policy: policy(attempts: 1),
            bucketWidth: .milliseconds(10),
            attemptTimeout: .milliseconds(50))
        let report = try scenario.run(seed: Self.seed)
        #expect(report.successes == 1 && report.timeouts == 0)
    }

    @Test func degradationSlowsServicesThatStartInTheWindow() throws {
        // 10 ms services, halved capacity in [0, 15 ms): the services starting at 0 and 20 ms end at
        // 20 ms (degraded) and 30 ms (normal).
        let window = CapacityModel.Degradation(start: .zero, end: at(15), fraction: 0.5)
        let scenario = try Scenario(
            clients: 2, server: capacity(service: 10, queue: 5, degradation: window), policy: policy(),
            bucketWidth: .milliseconds(1))
        let report = try scenario.run(seed: Self.seed)
        #expect(report.timeline.successes[20] == 1 && report.timeline.successes[30] == 1)
    }

    @Test func permanentErrorsEndAtTheFirstFailure() throws {
        let scenario = try Scenario(
            clients: 100, server: .outage(until: at(2000)), policy: policy(), bucketWidth: .milliseconds(10),
            permanentFraction: 1)
        let report = try scenario.run(seed: Self.seed)
        #expect(report.permanentFailures == 100 && report.attempts == 100 && report.giveUps == 0)
        #expect(report.lastCompletion == 0 && report.meanCompletion == 0)
    }

    @Test func honouringRetryAfterBringsEveryClientBackAtRecovery() throws {
        let scenario = try Scenario(
            clients: 500, server: .outage(until: at(1000), retryAfter: .untilRecovery), policy: policy(),
            bucketWidth: .milliseconds(10), retryAfter: .honor)
        let report = try scenario.run(seed: Self.seed)
        #expect(report.attempts == 1000 && report.successes == 500)
        #expect(report.timeline.peakRetryLoad.attempts == 500 && report.timeline.peakRetryLoad.start == at(1000))
    }

    @Test func aRetryAfterBeyondTheTimeLeftGivesUpAtOnce() throws {
        let scenario = try Scenario(
            clients: 10, server: .outage(until: at(1000), retryAfter: .untilRecovery),
            policy: policy(maxElapsed: .milliseconds(500)),
            bucketWidth: .milliseconds(10), retryAfter: .max)
        let report = try scenario.run(seed: Self.seed)
        #expect(report.attempts == 10 && report.giveUps == 10 && report.lastCompletion == 0)
    }

    @Test func theRecoveryTriggerMakesAHerdAtRecovery() throws {
        // Clients wait for the signal at 2 s, then U(0, 10 ms): all 1,000 retries land in [2 s, 2.01 s).
        let scenario = try Scenario(
            clients: 1000, server: .outage(until: at(2000)), policy: policy(jitter: .full),
            bucketWidth: .milliseconds(10),
            retryTrigger: .recovery(notificationDelay: .milliseconds(10)))
        let report = try scenario.run(seed: Self.seed)
        #expect(report.timeline.peakRetryLoad.attempts == 1000 && report.timeline.peakRetryLoad.start == at(2000))
        #expect(report.successes == 1000 && report.attempts == 2000)
    }

    @Test(arguments: [GiveUpBehavior.endSession, .continue])
    func sessionsEndOrContinueWhenARequestGivesUp(behaviour: GiveUpBehavior) throws {
        let scenario = try Scenario(
            clients: 20, server: .alwaysFail, policy: policy(attempts: 2), bucketWidth: .milliseconds(10),
            requestsPerClient: 3,
            thinkTime: .milliseconds(50), onGiveUp: behaviour)
        let report = try scenario.run(seed: Self.seed)
        #expect(report.requestsLost == 60, "every request is lost, sent or not")
        if behaviour == .endSession {
            #expect(report.deadSessions == 20 && report.uniqueRequests == 20 && report.attempts == 40)
        } else {
            #expect(report.deadSessions == 0 && report.uniqueRequests == 60 && report.attempts == 120)
            // Request 2 starts 100 ms (one wait) + 50 ms (think) after request 1.
            #expect(report.timeline.attempts[15] == 20 && report.lastCompletion == 0.4)
        }
    }

    /// Poisson arrivals: the number of clients over D seconds at rate λ is Poisson(λD), within
    /// 4 standard deviations √(λD) of λD; uniform arrivals all start inside their window.
    @Test func arrivalsFollowTheirProcess() throws {
        let poisson = try Scenario(
            clients: 1, server: .bernoulli(failureProbability: 0), policy: policy(), bucketWidth: .milliseconds(100),
            arrivals: .poisson(ratePerSecond: 500, duration: .seconds(4)))
        let clients = try poisson.run(seed: Self.seed).clients
        #expect(abs(Double(clients) - 2000) <= 4 * 2000.0.squareRoot(), "seed \(Self.seed): \(clients) arrivals")
        let uniform = try Scenario(
            clients: 400, server: .bernoulli(failureProbability: 0), policy: policy(), bucketWidth: .milliseconds(100),
            arrivals: .uniform(window: .seconds(1)))
        let timeline = try uniform.run(seed: Self.seed).timeline
        #expect(timeline.bucketCount == 10 && timeline.attempts.reduce(0, +) == 400)
    }

    @Test func contentionCountsOneCallPerWriteAndEveryClientFinishes() throws {
        let scenario = try Scenario(
            clients: 30, server: .contention(hop: .standard),
            policy: BackoffPolicy(
                base: .milliseconds(10), cap: .seconds(2), jitter: .full, budget: .maxAttempts(10_000)),
            bucketWidth: .milliseconds(10))
        let report = try scenario.run(seed: Self.seed)
        #expect(report.successes == 30 && report.giveUps == 0)
        #expect(report.attempts >= 30 && report.attempts == report.timeline.attempts.reduce(0, +))
        // Every attempt is 4 hops of about 10 ms: no client can finish before 4 hops.
        #expect(report.lastCompletion > 0.02)
    }

    @Test func invalidFeatureCombinationsAreRejected() throws {
        let p = try policy()
        #expect(throws: SimulationError.permanentWithContention) {
            try Scenario(
                clients: 1, server: .contention(hop: .standard), policy: p, bucketWidth: .milliseconds(1),
                permanentFraction: 0.5)
        }
        #expect(throws: SimulationError.timeoutWithoutQueue) {
            try Scenario(
                clients: 1, server: .alwaysFail, policy: p, bucketWidth: .milliseconds(1),
                attemptTimeout: .nanoseconds(5))
        }
        #expect(throws: SimulationError.recoveryTriggerWithoutRecovery) {
            try Scenario(
                clients: 1, server: .alwaysFail, policy: p, bucketWidth: .milliseconds(1),
                retryTrigger: .recovery(notificationDelay: .zero))
        }
        #expect(throws: SimulationError.self) {
            try Scenario(
                clients: 1,
                server: capacity(service: 10, queue: 1, degradation: .init(start: at(5), end: at(1), fraction: 0.5)),
                policy: p, bucketWidth: .milliseconds(1))
        }
    }
}
