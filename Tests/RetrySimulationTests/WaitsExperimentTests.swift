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

    /// Streamed runs in two chunks: the same summary on 1 or 2 threads, each summarising its own
    /// chunks, and through the ordered path that hands every total wait to a consumer.
    @Test func streamedSummariesAreTheSameForAnyThreadsAndWithAConsumer() throws {
        let experiment = try WaitsExperiment(
            policy: BackoffPolicy(jitter: .decorrelated()), runs: WaitsExperiment.chunkSize + 1_000,
            exactQuantileLimit: 1_000)
        let one = try experiment.measure(seed: 9, jobs: 1)
        let two = try experiment.measure(seed: 9, jobs: 2)
        var consumed = 0
        let ordered = try experiment.measure(seed: 9, jobs: 2) { _ in consumed += 1 }
        #expect(!one.summary.quantilesAreExact && consumed == experiment.runs)
        #expect(one.summary == two.summary && one.waits == two.waits, "seed 9")
        #expect(one.summary == ordered.summary && one.waits == ordered.waits, "seed 9")
    }

    @Test func everyTotalWaitIsReportedInRunOrder() throws {
        let policy = try BackoffPolicy(jitter: .equal)
        var totals: [Int64] = []
        let summary = try WaitsExperiment(policy: policy, runs: 100).run(seed: 3) { totals.append($0) }
        #expect(totals.count == 100)
        #expect(abs(summary.mean - Double(totals.reduce(0, +)) / 1e11) < 1e-12)
    }
}
