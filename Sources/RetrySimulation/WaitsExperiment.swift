import BackoffPolicies
import Stochastics

/// R independent runs of one request whose every attempt fails at once: the distribution of the
/// total wait W = w_1 + ... + w_(n-1) that a user sees before the error.
///
/// Each run draws from one generator in run order. Up to ``exactQuantileLimit`` runs are kept and
/// summarised exactly; beyond that the summary streams (constant memory, P² quantile estimates).
public struct WaitsExperiment: Sendable {
    public let policy: BackoffPolicy
    public let runs: Int
    /// Above this many runs the summary is streamed and its quantiles are estimates.
    public let exactQuantileLimit: Int

    /// The default ``exactQuantileLimit``: 2^24 runs, 128 MiB of kept values.
    public static let defaultExactQuantileLimit = 1 << 24

    public init(policy: BackoffPolicy, runs: Int, exactQuantileLimit: Int = defaultExactQuantileLimit) throws(SimulationError) {
        guard runs >= 1 else { throw .noRuns(runs) }
        self.policy = policy
        self.runs = runs
        self.exactQuantileLimit = exactQuantileLimit
    }

    /// Runs the experiment with a generator of `algorithm` seeded with `seed` (a stream seed).
    /// `eachTotalWait`, when given, receives every run's total wait in nanoseconds, in run order.
    public func run(
        seed: UInt64, algorithm: GeneratorAlgorithm = .standard, eachTotalWait: ((Int64) throws -> Void)? = nil
    ) throws -> Summary {
        var random = try RandomGenerator(algorithm: algorithm, seed: seed)
        return try run(using: &random, eachTotalWait: eachTotalWait)
    }

    /// Runs the experiment drawing from `random`.
    public func run<Random: UniformSource>(
        using random: inout Random, eachTotalWait: ((Int64) throws -> Void)? = nil
    ) throws -> Summary {
        let quantiles = [0.5, 0.9, 0.99]
        if runs <= exactQuantileLimit {
            var totals = [Double](repeating: 0, count: runs)
            for run in 0..<runs {
                let total = drawTotalWait(using: &random)
                try eachTotalWait?(total)
                totals[run] = Double(total) / 1e9
            }
            return Summary(totals, quantiles: quantiles)
        }
        let streaming = try StreamingSummary(quantiles: quantiles)
        for _ in 0..<runs {
            let total = drawTotalWait(using: &random)
            try eachTotalWait?(total)
            try streaming.add(Double(total) / 1e9)
        }
        return streaming.summary!
    }

    /// One run: the total wait in nanoseconds.
    @inlinable
    func drawTotalWait<Random: UniformSource>(using random: inout Random) -> Int64 {
        var state = BackoffState(policy: policy)
        while policy.nextWait(after: &state, elapsed: state.totalWait, using: &random) != nil {}
        return state.totalWait
    }
}
