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
    ]

    @Test(arguments: 0..<8)
    func everyApplicablePathGivesTheSameReport(case index: Int) throws {
        let (name, make) = Self.scenarios[index]
        let scenario = try make()
        let paths = ScenarioPath.applicable(to: scenario)
        // Sessions, permanent errors, Retry-After honoured and the recovery trigger need the state machine.
        #expect(paths.count == [3, 2, 2, 2, 3, 3, 3, 3][index], "\(name): \(paths)")
        for seed: UInt64 in [1, 99] {
            let reference = try scenario.run(seed: seed, arrivalSeed: nil, algorithm: .standard, path: .eventOrdered)
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
