import BackoffPolicies
import RetrySimulation
import Stochastics
import Testing

@Suite struct WaitsExperimentTests {
    @Test func streamingAndExactSummariesAgreeOnTheSameDraws() throws {
        let policy = try BackoffPolicy(jitter: .full)
        let exact = try WaitsExperiment(policy: policy, runs: 50_000).run(seed: 5)
        let streamed = try WaitsExperiment(policy: policy, runs: 50_000, exactQuantileLimit: 1_000).run(seed: 5)
        #expect(exact.quantilesAreExact && !streamed.quantilesAreExact)
        #expect(abs(exact.mean - streamed.mean) < 1e-12)
        #expect(abs(exact.standardDeviation - streamed.standardDeviation) < 1e-12)
        #expect(exact.maximum == streamed.maximum)
        #expect(abs(exact.quantile(0.5)! - streamed.quantile(0.5)!) < 0.01, "seed 5")
    }

    @Test func everyTotalWaitIsReportedInRunOrder() throws {
        let policy = try BackoffPolicy(jitter: .equal)
        var totals: [Int64] = []
        let summary = try WaitsExperiment(policy: policy, runs: 100).run(seed: 3) { totals.append($0) }
        #expect(totals.count == 100)
        #expect(abs(summary.mean - Double(totals.reduce(0, +)) / 1e11) < 1e-12)
    }
}
