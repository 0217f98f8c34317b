import BackoffPolicies
import Testing

/// README's "Using the library" example, line by line, with the values its comments promise.
@Suite struct ReadmeLibraryExampleTests {
    @Test func theExampleComputesWhatItsCommentsSay() throws {
        let policy = try BackoffPolicy(
            base: .milliseconds(100), schedule: .exponential(multiplier: 2), cap: .seconds(5),
            jitter: .full, budget: .maxRetries(4))
        let mean = policy.expectedTotalWait  // 0.75 (seconds)
        let sd = policy.totalWaitMoments?.standardDeviation  // 0.266...
        let attempts = policy.maxAttempts(expectedTotalWaitAtMost: .seconds(10))  // .attempts(9)
        #expect(mean == 0.75)
        #expect(abs((sd ?? 0) - 0.266145) < 1e-6)
        #expect(attempts == .attempts(9))
    }
}
