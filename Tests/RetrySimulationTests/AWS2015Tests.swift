import BackoffPolicies
import RetrySimulation
import Stochastics
import Testing

/// The findings of the AWS Architecture Blog post "Exponential Backoff And Jitter" (2015), which
/// scripts/reproduce-aws-2015 reruns in full (19 client counts x 100 runs), checked here at a
/// smaller scale: 25, 50 and 100 clients, 12 runs each. The margins are wide against the observed
/// spread (the standard error of a 12-run mean of calls is under 2 % in every cell).
@Suite struct AWS2015Tests {
    enum Strategy: String, CaseIterable {
        case noBackoff, exponential, full, equal, decorrelated

        func policy() throws -> BackoffPolicy {
            let budget = AttemptBudget.maxAttempts(100_000)
            switch self {
            case .noBackoff: return try BackoffPolicy(schedule: .immediate, cap: nil, budget: budget)
            case .exponential: return try BackoffPolicy(base: .milliseconds(10), cap: .seconds(2), budget: budget)
            case .full:
                return try BackoffPolicy(base: .milliseconds(10), cap: .seconds(2), jitter: .full, budget: budget)
            case .equal:
                return try BackoffPolicy(base: .milliseconds(10), cap: .seconds(2), jitter: .equal, budget: budget)
            case .decorrelated:
                return try BackoffPolicy(
                    base: .milliseconds(5), cap: .seconds(2), jitter: .decorrelated(), budget: budget)
            }
        }
    }

    /// Mean calls and mean completion time over `runs` seeded runs.
    static func measure(_ strategy: Strategy, clients: Int, runs: Int = 12) throws -> (
        calls: Double, completion: Double
    ) {
        let scenario = try Scenario(
            clients: clients, server: .contention(hop: .standard), policy: strategy.policy(),
            bucketWidth: .milliseconds(100))
        var calls = 0.0
        var completion = 0.0
        for run in 1...runs {
            let report = try scenario.run(seed: SeedDerivation.streamSeed(root: 2015, stream: UInt64(run)))
            #expect(report.successes == clients, "every client writes once")
            calls += Double(report.attempts)
            completion += report.lastCompletion
        }
        return (calls / Double(runs), completion / Double(runs))
    }

    @Test func theStudysFindingsHold() throws {
        var results: [Strategy: [Int: (calls: Double, completion: Double)]] = [:]
        for strategy in Strategy.allCases {
            for clients in [25, 50, 100] {
                results[strategy, default: [:]][clients] = try Self.measure(strategy, clients: clients)
            }
        }
        func calls(_ s: Strategy, _ n: Int) -> Double { results[s]![n]!.calls }
        func time(_ s: Strategy, _ n: Int) -> Double { results[s]![n]!.completion }

        // No backoff: calls grow roughly as N² (doubling N multiplies them by ~4, linear growth by 2).
        #expect(calls(.noBackoff, 50) / calls(.noBackoff, 25) > 2.8)
        #expect(calls(.noBackoff, 100) / calls(.noBackoff, 50) > 2.8)
        // Exponential without jitter barely reduces calls, and takes far longer than any jittered strategy.
        #expect(calls(.exponential, 100) > 0.6 * calls(.noBackoff, 100))
        for jittered in [Strategy.full, .equal, .decorrelated] {
            #expect(time(.exponential, 100) > 4 * time(jittered, 100), "\(jittered)")
        }
        // Full jitter uses the fewest calls, well under half of un-jittered exponential at N = 100.
        for other in [Strategy.noBackoff, .exponential, .equal, .decorrelated] {
            #expect(calls(.full, 100) < calls(other, 100), "\(other)")
        }
        #expect(calls(.full, 100) < 0.5 * calls(.exponential, 100))
        // Equal jitter costs about as many calls as full jitter, but takes longer.
        #expect(abs(calls(.equal, 100) / calls(.full, 100) - 1) < 0.15)
        #expect(time(.equal, 100) > time(.full, 100))
        // Decorrelated jitter costs more calls than full jitter.
        #expect(calls(.decorrelated, 100) > 1.1 * calls(.full, 100))
    }
}
