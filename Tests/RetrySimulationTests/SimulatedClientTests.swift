import BackoffPolicies
import EventSimulation
import RetrySimulation
import Testing

/// The client state machine on its own, as a timeline of events and actions.
@Suite struct SimulatedClientTests {
    struct NoRandomness: UniformSource {
        mutating func nextUniform() -> Double { Issue.record("no jitter must draw nothing"); return 0 }
    }

    func at(_ milliseconds: Int64) -> VirtualTime { VirtualTime(nanoseconds: milliseconds * 1_000_000) }

    @Test func retriesOnScheduleUntilTheServerRecovers() throws {
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(5))
        var client = SimulatedClient(policy: policy)
        var random = NoRandomness()
        #expect(!client.isRetrying)
        #expect(client.attemptAnswered(.failure, at: at(0), policy: policy, using: &random) == .retry(at: at(100)))
        #expect(client.isRetrying)
        #expect(client.attemptAnswered(.failure, at: at(100), policy: policy, using: &random) == .retry(at: at(300)))
        #expect(client.attemptAnswered(.success, at: at(300), policy: policy, using: &random) == .succeed)
        #expect(client.backoff.attempts == 3 && client.backoff.totalWait == 300_000_000)
    }

    @Test func givesUpWhenAttemptsRunOut() throws {
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxRetries(1))
        var client = SimulatedClient(policy: policy, firstAttempt: at(50))
        var random = NoRandomness()
        #expect(client.attemptAnswered(.failure, at: at(50), policy: policy, using: &random) == .retry(at: at(150)))
        #expect(client.attemptAnswered(.failure, at: at(150), policy: policy, using: &random) == .giveUp)
    }

    @Test func elapsedTimeCountsFromTheClientsFirstAttempt() throws {
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(10), maxElapsed: .milliseconds(250))
        var client = SimulatedClient(policy: policy, firstAttempt: at(1000))
        var random = NoRandomness()
        #expect(client.attemptAnswered(.failure, at: at(1000), policy: policy, using: &random) == .retry(at: at(1100)))
        // The next retry would start at 1300, 300 ms after the first attempt: beyond 250 ms.
        #expect(client.attemptAnswered(.failure, at: at(1100), policy: policy, using: &random) == .giveUp)
    }
}
