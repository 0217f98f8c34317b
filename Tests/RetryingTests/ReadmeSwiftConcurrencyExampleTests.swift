import BackoffPolicies
import Retrying
import Testing

@MainActor
final class FeedModel {
    private(set) var items: [String] = []
    private(set) var attempts = 0
    let retrier: Retrier<ContinuousClock>

    init(retrier: Retrier<ContinuousClock>) { self.retrier = retrier }

    /// Runs on the main actor: the retried closure mutates `attempts`, with no Sendable and no hop.
    func refresh(load: () async throws -> [String]) async throws {
        var random = SystemUniforms()
        items = try await retrier.run(using: &random) {
            attempts += 1
            return try await load()
        }
    }
}

/// Every attempt's story, for a log line.
func story<Value>(of outcome: RetryOutcome<Value>) -> String {
    outcome.attempts.map { "#\($0.attempt) at \($0.start): \($0.decision)" }.joined(separator: "; ")
}

/// The README's Swift 6 example, verbatim above, run in real time with millisecond waits.
@Suite struct ReadmeSwiftConcurrencyExampleTests {
    @MainActor
    @Test func theFeedModelRetriesOnTheMainActor() async throws {
        let policy = try BackoffPolicy(
            base: .milliseconds(1), cap: .milliseconds(5), jitter: .full, budget: .maxAttempts(4))
        // Without the app's throttle: after a failure and no accept, a throttle refuses the next attempt
        // with probability 1/2 (the SRE book's formula), which would make this test a coin toss.
        let feed = FeedModel(retrier: Retrier(policy: policy, breaker: SharedCircuitBreaker(try CircuitBreaker())))
        var failures = 2
        try await feed.refresh {
            if failures > 0 {
                failures -= 1
                throw ServerError(status: 503)
            }
            return ["a", "b"]
        }
        #expect(feed.items == ["a", "b"] && feed.attempts == 3)

        var random = SystemUniforms()
        let outcome = await feed.retrier.outcome(using: &random) { () async throws -> Int in 1 }
        #expect(story(of: outcome) == "#1 at \(outcome.attempts[0].start): succeeded")
    }
}
