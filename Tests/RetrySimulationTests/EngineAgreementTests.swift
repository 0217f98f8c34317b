import BackoffPolicies
import EventSimulation
@testable import RetrySimulation
import Testing

/// Servers that answer at once are run client by client, without the event queue; every client
/// draws from its own stream, so the event-ordered run must give the very same report.
@Suite struct EngineAgreementTests {
    static func policy(_ jitter: Jitter, maxElapsed: Duration? = nil) throws -> BackoffPolicy {
        try BackoffPolicy(base: .milliseconds(100), cap: .seconds(2), jitter: jitter, budget: .maxAttempts(6), maxElapsed: maxElapsed)
    }

    static let end = VirtualTime(nanoseconds: 1_500_000_000)

    static let scenarios: [(String, @Sendable () throws -> Scenario)] = [
        ("outage burst", { try Scenario(clients: 3000, server: .outage(until: end), policy: policy(.full), bucketWidth: 10_000_000) }),
        ("bernoulli sessions", {
            try Scenario(clients: 800, server: .bernoulli(failureProbability: 0.6, retryAfter: .fixed(300_000_000)),
                         policy: policy(.decorrelated()), bucketWidth: 10_000_000, arrivals: .uniform(window: 2_000_000_000),
                         permanentFraction: 0.1, retryAfter: .max, requestsPerClient: 4, thinkTime: 50_000_000, onGiveUp: .continue)
        }),
        ("outage recovery trigger", {
            try Scenario(clients: 1500, server: .outage(until: end, retryAfter: .untilRecovery), policy: policy(.equal, maxElapsed: .seconds(1)),
                         bucketWidth: 5_000_000, arrivals: .poisson(ratePerSecond: 2000, duration: 1_000_000_000),
                         retryTrigger: .recovery(notificationDelay: 20_000_000), requestsPerClient: 2)
        }),
        ("always-fail end-session", {
            try Scenario(clients: 500, server: .alwaysFail, policy: policy(.disabled), bucketWidth: 10_000_000, requestsPerClient: 3)
        }),
    ]

    @Test(arguments: 0..<4)
    func clientByClientEqualsEventOrder(case index: Int) throws {
        let (name, make) = Self.scenarios[index]
        let scenario = try make()
        for seed: UInt64 in [1, 99] {
            let alone = try scenario.run(seed: seed, arrivalSeed: nil, algorithm: .standard, queued: false)
            let queued = try scenario.run(seed: seed, arrivalSeed: nil, algorithm: .standard, queued: true)
            #expect(alone == queued, "\(name), seed \(seed)")
            #expect(alone.attempts > 0)
        }
    }
}
