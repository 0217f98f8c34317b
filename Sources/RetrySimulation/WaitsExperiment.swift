import BackoffPolicies
import Stochastics

/// R independent runs of one request whose every attempt fails at once: the distribution of the
/// total wait W = w_1 + ... + w_(n-1) that a user sees before the error.
///
/// The runs are drawn in chunks of ``chunkSize``: chunk c from its own generator seeded with
/// `streamSeed(seed, c)`, so chunks can run on several threads and the result is the same for every
/// number of threads. Up to ``exactQuantileLimit`` runs are kept and summarised exactly; beyond that
/// the summary streams (constant memory, P² quantile estimates). A policy without randomness (no
/// jitter, or the immediate schedule) waits the same in every run: its summary is built from one run.
public struct WaitsExperiment: Sendable {
    public let policy: BackoffPolicy
    public let runs: Int
    /// Above this many runs the summary is streamed and its quantiles are estimates.
    public let exactQuantileLimit: Int

    /// The default ``exactQuantileLimit``: 2^24 runs, 128 MiB of kept values.
    public static let defaultExactQuantileLimit = 1 << 24
    /// Runs per chunk (per random stream): 2^20.
    public static let chunkSize = 1 << 20

    public init(policy: BackoffPolicy, runs: Int, exactQuantileLimit: Int = defaultExactQuantileLimit) throws(SimulationError) {
        guard runs >= 1 else { throw .noRuns(runs) }
        self.policy = policy
        self.runs = runs
        self.exactQuantileLimit = exactQuantileLimit
    }

    /// Runs the experiment with generators of `algorithm` derived from `seed` (a stream seed), on up
    /// to `jobs` threads. `eachTotalWait`, when given, receives every run's total wait in
    /// nanoseconds, in run order.
    public func run(
        seed: UInt64, algorithm: GeneratorAlgorithm = .standard, jobs: Int = 1,
        eachTotalWait: ((Int64) throws -> Void)? = nil
    ) throws -> Summary {
        let quantiles = [0.5, 0.9, 0.99]
        if policy.jitter == .disabled || policy.schedule == .immediate {
            var noRandomness = try RandomGenerator(algorithm: algorithm, seed: seed)  // consulted by no draw
            let total = drawTotalWait(using: &noRandomness)
            if let eachTotalWait { for _ in 0..<runs { try eachTotalWait(total) } }
            return Summary(constant: Double(total) / 1e9, count: runs, quantiles: quantiles)
        }
        let chunks = (runs + Self.chunkSize - 1) / Self.chunkSize
        let experiment = self
        if runs <= exactQuantileLimit {
            if eachTotalWait == nil {
                // Each chunk writes its slice of one buffer, in parallel: no copy, no chunk arrays.
                var totals = [Double](repeating: 0, count: runs)
                try totals.withUnsafeMutableBufferPointer { buffer in
                    let slices = DisjointSlices(buffer)
                    _ = try ParallelWork.map(chunks, jobs: jobs) { index in
                        try experiment.fill(chunk: index, seed: seed, algorithm: algorithm, into: slices)
                    }
                }
                return Summary(totals, quantiles: quantiles)
            }
            var totals = [Double]()
            totals.reserveCapacity(runs)
            // A batch of chunks at a time keeps at most `jobs` chunk results in memory besides `totals`.
            for batch in stride(from: 0, to: chunks, by: max(1, jobs)) {
                let count = min(max(1, jobs), chunks - batch)
                let results = try ParallelWork.map(count, jobs: jobs) { try experiment.chunk(batch + $0, seed: seed, algorithm: algorithm) }
                for chunk in results {
                    for total in chunk {
                        try eachTotalWait?(total)
                        totals.append(Double(total) / 1e9)
                    }
                }
            }
            return Summary(totals, quantiles: quantiles)
        }
        let streaming = try StreamingSummary(quantiles: quantiles)
        for batch in stride(from: 0, to: chunks, by: max(1, jobs)) {
            let count = min(max(1, jobs), chunks - batch)
            for chunk in try ParallelWork.map(count, jobs: jobs, { try experiment.chunk(batch + $0, seed: seed, algorithm: algorithm) }) {
                for total in chunk {
                    try eachTotalWait?(total)
                    try streaming.add(Double(total) / 1e9)
                }
            }
        }
        return streaming.summary!
    }

    /// The total waits of chunk `index`, in nanoseconds.
    func chunk(_ index: Int, seed: UInt64, algorithm: GeneratorAlgorithm) throws -> [Int64] {
        var random = try RandomGenerator(algorithm: algorithm, seed: SeedDerivation.streamSeed(root: seed, stream: UInt64(index)))
        let count = min(Self.chunkSize, runs - index * Self.chunkSize)
        return [Int64](unsafeUninitializedCapacity: count) { buffer, initialized in
            for run in 0..<count { buffer[run] = drawTotalWait(using: &random) }
            initialized = count
        }
    }

    /// Writes chunk `index`'s total waits, in seconds, into its own slice of `slices`.
    func fill(chunk index: Int, seed: UInt64, algorithm: GeneratorAlgorithm, into slices: DisjointSlices) throws {
        var random = try RandomGenerator(algorithm: algorithm, seed: SeedDerivation.streamSeed(root: seed, stream: UInt64(index)))
        let start = index * Self.chunkSize
        for run in start..<min(start + Self.chunkSize, runs) {
            slices.base[run] = Double(drawTotalWait(using: &random)) / 1e9
        }
    }

    /// One run: the total wait in nanoseconds.
    @inlinable
    func drawTotalWait<Random: UniformSource>(using random: inout Random) -> Int64 {
        policy.drawTotalWait(using: &random)
    }
}

/// A buffer that several threads write at once, each to its own disjoint range of indices (one
/// chunk of runs per thread), so no two threads touch the same element. The buffer outlives the work.
struct DisjointSlices: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<Double>

    init(_ base: UnsafeMutableBufferPointer<Double>) { self.base = base }
}
