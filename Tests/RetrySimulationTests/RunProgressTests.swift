import BackoffPolicies
import EventSimulation
import Testing

@testable import RetrySimulation

/// A run counts its sessions in a ``RunProgress`` as they end, in steps, and the report does not
/// move: every path, thread count and chunk size ends with every session counted.
@Suite struct RunProgressTests {
    @Test(arguments: 0..<8)
    func everyPathCountsEverySessionAndKeepsItsReport(case index: Int) throws {
        let (name, make) = EngineAgreementTests.scenarios[index]
        let scenario = try make()
        let seed: UInt64 = 11
        let sessions = try scenario.arrivalTimes(seed: seed, algorithm: .standard).count
        for path in ScenarioPath.applicable(to: scenario) {
            for (jobs, chunk) in [(1, Scenario.clientChunk), (1, 77), (3, 100)] {
                let quiet = try scenario.run(
                    seed: seed, arrivalSeed: nil, algorithm: .standard, path: path, jobs: jobs, exactQuantileLimit: 0,
                    clientChunk: chunk)
                let progress = RunProgress()
                let counted = try scenario.run(
                    seed: seed, arrivalSeed: nil, algorithm: .standard, path: path, jobs: jobs, exactQuantileLimit: 0,
                    clientChunk: chunk, progress: progress)
                let context = "\(name), \(path), \(jobs) jobs, chunks of \(chunk), seed \(seed)"
                #expect(counted == quiet, "\(context)")
                #expect(progress.sessionsEnded == sessions, "\(context)")
            }
        }
    }

    /// Reads the progress as each request ends: what another thread would see mid-run.
    final class Watcher: RequestLog {
        let progress: RunProgress
        var seen: [Int] = []
        init(_ progress: RunProgress) { self.progress = progress }
        func requestEnded(_ request: RequestRecord) { seen.append(progress.sessionsEnded) }
    }

    /// An event-ordered run reports every ``RunProgress/step`` sessions, then the rest at its end;
    /// a client-by-client run after each chunk. 40,000 one-request clients: 2 steps of 16,384
    /// are seen before the end.
    @Test func runsReportInStepsWhileTheyRun() throws {
        let scenario = try Scenario(
            clients: 40_000, server: .bernoulli(failureProbability: 0.5, retryAfter: nil),
            policy: EngineAgreementTests.policy(.full), bucketWidth: .milliseconds(10))
        let progress = RunProgress()
        let watcher = Watcher(progress)
        _ = try scenario.run(
            seed: 3, arrivalSeed: nil, algorithm: .standard, path: .eventOrdered, requestLog: watcher,
            progress: progress)
        #expect(Set(watcher.seen) == [0, RunProgress.step, 2 * RunProgress.step])
        #expect(watcher.seen.count == 40_000 && progress.sessionsEnded == 40_000)
        // One request a session, logged before its session is counted: the 16,385th request to end
        // is the first to see the step.
        #expect(watcher.seen.firstIndex(of: RunProgress.step) == RunProgress.step)

        let chunked = RunProgress()
        let byClient = Watcher(chunked)
        _ = try scenario.run(
            seed: 3, arrivalSeed: nil, algorithm: .standard, path: .clientByClient, requestLog: byClient,
            clientChunk: 10_000, progress: chunked)
        #expect(Set(byClient.seen) == [0, 10_000, 20_000, 30_000])
        #expect(chunked.sessionsEnded == 40_000)
    }
}
