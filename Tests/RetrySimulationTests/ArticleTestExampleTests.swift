import BackoffPolicies
import RetrySimulation
import Stochastics
import Testing

/// The example of the article "How the numbers are checked" (checking your own policy in your
/// tests), verbatim, so it keeps compiling and passing.
@Test func ourRetryPolicyWaitsAsDesigned() throws {
    let policy = try BackoffPolicy(
        base: .milliseconds(200), schedule: .exponential(multiplier: 2), cap: .seconds(2),
        jitter: .full, budget: .maxRetries(5))
    let seed: UInt64 = 42
    let summary = try WaitsExperiment(policy: policy, runs: 20_000).run(seed: seed)
    let check = summary.checkMean(against: try #require(policy.expectedTotalWait), limit: 4)
    #expect(check.passed, "seed \(seed): \(check)")

    // A herd of 10,000 clients against a server that fails half the attempts:
    let herd = try Scenario(
        clients: 10_000, server: .bernoulli(failureProbability: 0.5), policy: policy, bucketWidth: .milliseconds(10))
    let report = try herd.run(seed: seed)
    let expected = try #require(herd.closedForm)
    let attempts = MeanCheck(
        observed: report.attemptsPerClient, expected: expected.attemptsPerClient,
        standardError: report.attemptsStandardError)
    #expect(attempts.passed, "seed \(seed): \(attempts)")
}
