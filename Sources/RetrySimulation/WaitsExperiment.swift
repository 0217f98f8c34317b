import BackoffPolicies
import Parallelism
import Stochastics

/// R independent runs of one request whose every attempt fails at once: the distribution of the
/// total wait W = w_1 + ... + w_(n-1) that a user sees before the error.
///
/// The runs are drawn in chunks of ``chunkSize``: chunk c from its own generator seeded with
/// `streamSeed(seed, c)`, so chunks can run on several threads and the result is the same for every
/// number of threads. Up to ``exactQuantileLimit`` runs are kept and summarised exactly; beyond that
/// the summary streams (constant memory: exact sums for the mean and standard deviation, quantiles
/// from a sketch within 0.1 %), each thread summarising its own chunks. A policy without randomness (no
/// jitter, or the immediate schedule) waits the same in every run: its summary is built from one run.
public struct WaitsExperiment: Sendable {
    public let policy: BackoffPolicy
    public let runs: Int
    /// Above this many runs the summary is streamed and its quantiles are estimates.
    public let exactQuantileLimit: Int

    /// The default ``exactQuantileLimit``: 2^24 runs, 128 MiB of kept values.
    public static let defaultExactQuantileLimit = Scenario.exactQuantileLimit
    /// Runs per chunk (per random stream): 2^20.
    public static let chunkSize = 1 << 20

    public init(policy: BackoffPolicy, runs: Int, exactQuantileLimit: Int = defaultExactQuantileLimit)
        throws(SimulationError)
    {
        guard runs >= 1 else { throw .noRuns(runs) }
        self.policy = policy
        self.runs = runs
        self.exactQuantileLimit = exactQuantileLimit
    }

    /// Runs the experiment with generators of `algorithm` derived from `seed` (a stream seed), on up
    /// to `jobs` threads: ``measure(seed:algorithm:jobs:eachTotalWait:)``'s summary.
    public func run(
        seed: UInt64, algorithm: GeneratorAlgorithm = .standard, jobs: Int = 1,
        eachTotalWait: ((Int64) throws -> Void)? = nil
    ) throws -> Summary {
        try measure(seed: seed, algorithm: algorithm, jobs: jobs, eachTotalWait: eachTotalWait).summary
    }

    /// Runs the experiment with generators of `algorithm` derived from `seed` (a stream seed), on up
    /// to `jobs` threads. `eachTotalWait`, when given, receives every run's total wait in
    /// nanoseconds, in run order.
    public func measure(
        seed: UInt64, algorithm: GeneratorAlgorithm = .standard, jobs: Int = 1,
        eachTotalWait: ((Int64) throws -> Void)? = nil
    ) throws -> WaitsOutcome {
        let quantiles = [0.5, 0.9, 0.99]
        if policy.jitter == .disabled || policy.schedule == .immediate {
            var noRandomness = try RandomGenerator(algorithm: algorithm, seed: seed)  // consulted by no draw
            var tally = WaitTally()
            let total = policy.drawTotalWait(using: &noRandomness, tally: &tally)
            if let eachTotalWait { for _ in 0..<runs { try eachTotalWait(total) } }
            return WaitsOutcome(
                summary: Summary(constant: Double(total) / 1e9, count: runs, quantiles: quantiles),
                waits: WaitTally(waits: tally.waits * runs, atCap: tally.atCap * runs))
        }
        if runs <= exactQuantileLimit {
            if eachTotalWait == nil {
                return try Self.measure([self], seeds: [seed], algorithm: algorithm, jobs: jobs)[0]
            }
            var totals = [Double]()
            totals.reserveCapacity(runs)
            let tally = try forEachTotalWait(seed: seed, algorithm: algorithm, jobs: jobs) { total in
                try eachTotalWait?(total)
                totals.append(Double(total) / 1e9)
            }
            return WaitsOutcome(summary: Summary(totals, quantiles: quantiles), waits: tally)
        }
        if let eachTotalWait {
            var streamed = MergeableSummary(unit: 1e9)
            let tally = try forEachTotalWait(seed: seed, algorithm: algorithm, jobs: jobs) { total in
                try eachTotalWait(total)
                streamed.add(total)
            }
            return WaitsOutcome(summary: streamed.summary(quantiles: quantiles)!, waits: tally)
        }
        return try streamed(seed: seed, algorithm: algorithm, jobs: jobs, quantiles: quantiles)
    }

    /// Beyond the exact-quantile limit and without a consumer of every total wait: each of `jobs`
    /// threads draws every `jobs`-th chunk straight into a summary of its own (exact sums and a
    /// sketch, see ``MergeableSummary``), and the summaries merge into the very same one whatever
    /// the number of threads.
    private func streamed(seed: UInt64, algorithm: GeneratorAlgorithm, jobs: Int, quantiles: [Double]) throws
        -> WaitsOutcome
    {
        let (experiment, chunks) = (self, chunkCount)
        let workers = min(max(1, jobs), chunks)
        let parts = try ParallelWork.map(workers, jobs: workers) { worker in
            var sink = SummarySink()
            var tally = WaitTally()
            for chunk in stride(from: worker, to: chunks, by: workers) {
                tally = tally + (try experiment.draw(chunk: chunk, seed: seed, algorithm: algorithm, into: &sink))
            }
            return (sink.summary, tally)
        }
        var (summary, tally) = (MergeableSummary(unit: 1e9), WaitTally())
        for part in parts {
            summary.merge(part.0)
            tally = tally + part.1
        }
        return WaitsOutcome(summary: summary.summary(quantiles: quantiles)!, waits: tally)
    }

    /// Every run's total wait in nanoseconds, in run order: `jobs` chunks at a time drawn in parallel,
    /// so at most `jobs` chunk results are held at once. Returns the waits' tally.
    private func forEachTotalWait(
        seed: UInt64, algorithm: GeneratorAlgorithm, jobs: Int, _ body: (Int64) throws -> Void
    ) throws -> WaitTally {
        let chunks = (runs + Self.chunkSize - 1) / Self.chunkSize
        let experiment = self
        var tally = WaitTally()
        for batch in stride(from: 0, to: chunks, by: max(1, jobs)) {
            let count = min(max(1, jobs), chunks - batch)
            for chunk in try ParallelWork.map(
                count, jobs: jobs, { try experiment.chunk(batch + $0, seed: seed, algorithm: algorithm) })
            {
                for total in chunk.totals { try body(total) }
                tally = tally + chunk.tally
            }
        }
        return tally
    }

    /// The total waits of chunk `index`, in nanoseconds, and their waits' tally.
    func chunk(_ index: Int, seed: UInt64, algorithm: GeneratorAlgorithm) throws -> (totals: [Int64], tally: WaitTally)
    {
        let count = min(Self.chunkSize, runs - index * Self.chunkSize)
        var tally = WaitTally()
        let totals = try [Int64](unsafeUninitializedCapacity: count) { buffer, initialized in
            var sink = NanosecondsSink(base: buffer.baseAddress!)
            tally = try draw(chunk: index, seed: seed, algorithm: algorithm, into: &sink)
            initialized = count
        }
        return (totals, tally)
    }

    /// Draws the runs of chunk `index` in order, handing `sink` each run's offset in the chunk and
    /// its total wait in nanoseconds, and returns the waits' tally. The chunk's stream is seeded with
    /// `streamSeed(seed, index)`; mt19937 and taus2 are stepped inline (``MersenneTwister``,
    /// ``Taus2``: bit-identical to GSL's), other algorithms through GSL.
    @inline(__always)
    func draw<Sink: TotalWaitSink>(
        chunk index: Int, seed: UInt64, algorithm: GeneratorAlgorithm, into sink: inout Sink
    ) throws -> WaitTally {
        let streamSeed = SeedDerivation.streamSeed(root: seed, stream: UInt64(index))
        let count = min(Self.chunkSize, runs - index * Self.chunkSize)
        switch algorithm {
        case .mt19937:
            var random = MersenneTwister(seed: streamSeed)
            return policy.drawTotalWaits(count, using: &random, into: &sink)
        case .taus2:
            var random = Taus2(seed: streamSeed)
            return policy.drawTotalWaits(count, using: &random, into: &sink)
        case .ranlxd2:
            var random = try RandomGenerator(algorithm: algorithm, seed: streamSeed)
            return policy.drawTotalWaits(count, using: &random, into: &sink)
        }
    }

    /// Runs several experiments together, `seeds[i]` for `experiments[i]`, with the same results as
    /// running each with ``run(seed:algorithm:jobs:eachTotalWait:)``: the chunks of all of them share
    /// one pool of `jobs` threads, each experiment's summary running as soon as its chunks are drawn,
    /// beside the next experiment's draws (see `WaitsPipeline`). Experiments beyond the
    /// exact-quantile limit run one by one.
    public static func run(
        _ experiments: [WaitsExperiment], seeds: [UInt64], algorithm: GeneratorAlgorithm = .standard, jobs: Int = 1
    ) throws -> [Summary] {
        try measure(experiments, seeds: seeds, algorithm: algorithm, jobs: jobs).map(\.summary)
    }

    /// ``run(_:seeds:algorithm:jobs:)`` with each experiment's waits' tally.
    public static func measure(
        _ experiments: [WaitsExperiment], seeds: [UInt64], algorithm: GeneratorAlgorithm = .standard, jobs: Int = 1
    ) throws -> [WaitsOutcome] {
        precondition(experiments.count == seeds.count, "one seed per experiment")
        let pooled = experiments.indices.filter {
            let e = experiments[$0]
            return e.runs <= e.exactQuantileLimit && e.policy.jitter != .disabled && e.policy.schedule != .immediate
        }
        let summaries = try WaitsPipeline(
            pooled.map { experiments[$0] }, seeds: pooled.map { seeds[$0] }, algorithm: algorithm
        )
        .run(jobs: jobs)
        var results: [WaitsOutcome] = []
        for index in experiments.indices {
            if let position = pooled.firstIndex(of: index) {
                results.append(summaries[position])
            } else {
                results.append(try experiments[index].measure(seed: seeds[index], algorithm: algorithm, jobs: jobs))
            }
        }
        return results
    }

    /// The number of chunks of ``chunkSize`` runs (the last may be shorter).
    var chunkCount: Int { (runs + Self.chunkSize - 1) / Self.chunkSize }

    /// Writes chunk `index`'s total waits, in seconds, into its own slice of `slices`; returns the
    /// waits' tally.
    func fill(chunk index: Int, seed: UInt64, algorithm: GeneratorAlgorithm, into slices: DisjointSlices) throws
        -> WaitTally
    {
        var sink = SecondsSink(base: slices.base.baseAddress! + index * Self.chunkSize)
        return try draw(chunk: index, seed: seed, algorithm: algorithm, into: &sink)
    }

    /// One run: the total wait in nanoseconds.
    @inlinable
    func drawTotalWait<Random: UniformSource>(using random: inout Random) -> Int64 {
        policy.drawTotalWait(using: &random)
    }
}

/// What a waits experiment measured: the summary of its total waits, and how many of its waits
/// equal the cap.
public struct WaitsOutcome: Sendable {
    public let summary: Summary
    public let waits: WaitTally
}

/// Total waits added to a summary that streams them (exact sums and a sketch).
struct SummarySink: TotalWaitSink {
    var summary = MergeableSummary(unit: 1e9)
    @inline(__always) mutating func take(run: Int, totalWait: Nanoseconds) { summary.add(totalWait) }
}

/// Total waits written in nanoseconds, run r at `base[r]`.
struct NanosecondsSink: TotalWaitSink {
    let base: UnsafeMutablePointer<Int64>
    @inline(__always) mutating func take(run: Int, totalWait: Nanoseconds) { base[run] = totalWait }
}

/// Total waits written in seconds, run r at `base[r]`.
struct SecondsSink: TotalWaitSink {
    let base: UnsafeMutablePointer<Double>
    @inline(__always) mutating func take(run: Int, totalWait: Nanoseconds) { base[run] = Double(totalWait) / 1e9 }
}
