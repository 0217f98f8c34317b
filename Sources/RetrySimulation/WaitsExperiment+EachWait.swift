import BackoffPolicies
import Stochastics

extension WaitsExperiment {
    /// Every run's waits, one per retry in order, in nanoseconds: the same draws as the runs whose
    /// totals ``measure(seed:algorithm:jobs:eachTotalWait:)`` summarises (the chunks' streams, each
    /// run drawn as repeated `BackoffPolicy.nextWait(after:elapsed:using:)` calls), so a run's waits
    /// add up to its total. Sequential, for `backoff waits --wait-samples`.
    public func forEachRunsWaits(
        seed: UInt64, algorithm: GeneratorAlgorithm = .standard, _ body: (_ run: Int, _ waits: [Int64]) throws -> Void
    ) throws {
        var waits: [Int64] = []
        for chunk in 0..<chunkCount {
            let streamSeed = SeedDerivation.streamSeed(root: seed, stream: UInt64(chunk))
            let first = chunk * Self.chunkSize
            let count = min(Self.chunkSize, runs - first)
            switch algorithm {
            case .mt19937:
                var random = MersenneTwister(seed: streamSeed)
                try drawRuns(first: first, count: count, using: &random, into: &waits, body)
            case .taus2:
                var random = Taus2(seed: streamSeed)
                try drawRuns(first: first, count: count, using: &random, into: &waits, body)
            case .ranlxd2:
                var random = try RandomGenerator(algorithm: algorithm, seed: streamSeed)
                try drawRuns(first: first, count: count, using: &random, into: &waits, body)
            }
        }
    }

    private func drawRuns<Random: UniformSource>(
        first: Int, count: Int, using random: inout Random, into waits: inout [Int64],
        _ body: (Int, [Int64]) throws -> Void
    ) throws {
        for run in first..<(first + count) {
            waits.removeAll(keepingCapacity: true)
            var state = BackoffState(policy: policy)
            while let wait = policy.nextWait(after: &state, elapsed: state.totalWait, using: &random) {
                waits.append(wait)
            }
            try body(run, waits)
        }
    }
}
