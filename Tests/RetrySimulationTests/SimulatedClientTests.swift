import BackoffPolicies
import EventSimulation
import RetrySimulation
import Testing

/// The client state machine on its own, as a timeline of events and actions (no engine, no server).
@Suite struct SimulatedClientTests {
    struct NoRandomness: UniformSource {
        mutating func nextUniform() -> Double {
            Issue.record("no jitter must draw nothing")
            return 0
        }
    }

    func at(_ milliseconds: Int64) -> VirtualTime { VirtualTime(nanoseconds: milliseconds * 1_000_000) }

    @Test func retriesOnScheduleUntilTheServerRecovers() throws {
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(5))
        var client = SimulatedClient(policy: policy)
        var random = NoRandomness()
        let behaviour = ClientBehaviour()
        #expect(client.beginAttempt(at: at(0), policy: policy) { false } == (1, false))
        #expect(
            client.answered(.failure(serverDelay: nil), at: at(0), policy: policy, behaviour: behaviour, using: &random)
                == .retry(at: at(100)))
        #expect(
            client.beginAttempt(at: at(100), policy: policy) {
                Issue.record("asked once per request")
                return false
            } == (2, true))
        #expect(
            client.answered(
                .failure(serverDelay: nil), at: at(100), policy: policy, behaviour: behaviour, using: &random)
                == .retry(at: at(300)))
        _ = client.beginAttempt(at: at(300), policy: policy) { false }
        #expect(
            client.answered(.success, at: at(300), policy: policy, behaviour: behaviour, using: &random)
                == .endRequest(.succeeded, next: nil, unsent: 0))
        #expect(client.backoff.attempts == 3 && client.backoff.totalWait == 300_000_000 && client.attempts == 3)
    }

    @Test func givesUpWhenAttemptsRunOutAndTheSessionEnds() throws {
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxRetries(1))
        var client = SimulatedClient(policy: policy, requests: 3)
        var random = NoRandomness()
        let behaviour = ClientBehaviour(thinkTime: .milliseconds(20), onGiveUp: .endSession)
        _ = client.beginAttempt(at: at(50), policy: policy) { false }
        #expect(
            client.answered(
                .failure(serverDelay: nil), at: at(50), policy: policy, behaviour: behaviour, using: &random)
                == .retry(at: at(150)))
        _ = client.beginAttempt(at: at(150), policy: policy) { false }
        #expect(
            client.answered(
                .failure(serverDelay: nil), at: at(150), policy: policy, behaviour: behaviour, using: &random)
                == .endRequest(.gaveUp, next: nil, unsent: 2))
        #expect(client.requestsLeft == 0)
    }

    @Test func aSessionContinuesAfterThinkingWhenAsked() throws {
        let policy = try BackoffPolicy(budget: .maxAttempts(1))
        var client = SimulatedClient(policy: policy, requests: 2)
        var random = NoRandomness()
        let behaviour = ClientBehaviour(thinkTime: .milliseconds(20), onGiveUp: .continue)
        _ = client.beginAttempt(at: at(0), policy: policy) { false }
        #expect(
            client.answered(.timeout, at: at(5), policy: policy, behaviour: behaviour, using: &random)
                == .endRequest(.gaveUp, next: at(25), unsent: 0))
        #expect(client.beginAttempt(at: at(25), policy: policy) { true } == (2, false), "a new request, not a retry")
        #expect(client.isPermanent)
        #expect(
            client.answered(.permanentError, at: at(25), policy: policy, behaviour: behaviour, using: &random)
                == .endRequest(.permanentFailure, next: nil, unsent: 0))
    }

    @Test func elapsedTimeCountsFromTheRequestsFirstAttempt() throws {
        let policy = try BackoffPolicy(
            base: .milliseconds(100), budget: .maxAttempts(10), maxElapsed: .milliseconds(250))
        var client = SimulatedClient(policy: policy)
        var random = NoRandomness()
        _ = client.beginAttempt(at: at(1000), policy: policy) { false }
        #expect(
            client.answered(
                .failure(serverDelay: nil), at: at(1000), policy: policy, behaviour: ClientBehaviour(), using: &random)
                == .retry(at: at(1100)))
        _ = client.beginAttempt(at: at(1100), policy: policy) { false }
        // The next retry would start at 1300 ms, 300 ms after the first attempt: beyond 250 ms.
        #expect(
            client.answered(
                .failure(serverDelay: nil), at: at(1100), policy: policy, behaviour: ClientBehaviour(), using: &random)
                == .endRequest(.gaveUp, next: nil, unsent: 0))
    }

    @Test func aServerDelayIsHonouredOrMaximisedOrIgnored() throws {
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(5))
        for (handling, expected) in [(RetryAfterHandling.ignore, Int64(100)), (.honor, 40), (.max, 100)] {
            var client = SimulatedClient(policy: policy)
            var random = NoRandomness()
            _ = client.beginAttempt(at: at(0), policy: policy) { false }
            let action = client.answered(
                .failure(serverDelay: 40_000_000), at: at(0), policy: policy,
                behaviour: ClientBehaviour(retryAfter: handling), using: &random)
            #expect(action == .retry(at: at(expected)), "\(handling)")
        }
    }

    @Test func aStaleTimeoutIsNotTheAttemptInFlight() throws {
        let policy = try BackoffPolicy()
        var client = SimulatedClient(policy: policy)
        let first = client.beginAttempt(at: at(0), policy: policy) { false }.id
        #expect(client.isAwaiting(first))
        var random = NoRandomness()
        _ = client.answered(
            .failure(serverDelay: nil), at: at(0), policy: policy, behaviour: ClientBehaviour(), using: &random)
        let second = client.beginAttempt(at: at(100), policy: policy) { false }.id
        #expect(!client.isAwaiting(first) && client.isAwaiting(second))
    }
}
