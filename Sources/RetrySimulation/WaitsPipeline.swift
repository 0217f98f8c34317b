import BackoffPolicies
import Dispatch
import Parallelism
import Stochastics
import Synchronization

/// Several waits experiments run as one ordered list of tasks pulled by `jobs` threads: each
/// experiment's chunks, then its summary. A summary waits only for its own experiment's chunks, so
/// the next experiment's draws run beside it and no core idles while a summary runs; an experiment's
/// values are freed once summarised, so at most about `jobs` experiments' values are held at once.
///
/// Every chunk draws from its own stream and writes its own slice, and each summary reads its
/// experiment's values in run order, so the results are those of running the experiments one by one.
/// A summarised experiment's memory goes to the next experiment that fits in it, so the pages the
/// first experiments faulted in serve the rest (a fresh 80 MB buffer per experiment of 10^7 runs
/// cost about a tenth of `waits`' CPU in page faults: 60,000 faults for four modes, now 40,500).
final class WaitsPipeline: Sendable {
    private enum Task {
        case fill(experiment: Int, chunk: Int)
        case summarize(experiment: Int)
    }

    private let experiments: [WaitsExperiment]
    private let seeds: [UInt64]
    private let algorithm: GeneratorAlgorithm
    private let tasks: [Task]
    /// Each experiment's memory (its values are the first `runs`), taken by its first chunk and
    /// handed back after its summary, and the memory handed back that no experiment holds.
    private let buffers: Mutex<(held: [DisjointSlices?], spare: [DisjointSlices])>
    /// Signalled once by each finished chunk of the experiment.
    private let chunksDone: [DispatchSemaphore]

    init(_ experiments: [WaitsExperiment], seeds: [UInt64], algorithm: GeneratorAlgorithm) {
        self.experiments = experiments
        self.seeds = seeds
        self.algorithm = algorithm
        tasks = experiments.indices.flatMap { index in
            (0..<experiments[index].chunkCount).map { Task.fill(experiment: index, chunk: $0) } + [
                .summarize(experiment: index)
            ]
        }
        buffers = Mutex(([DisjointSlices?](repeating: nil, count: experiments.count), []))
        chunksDone = experiments.map { _ in DispatchSemaphore(value: 0) }
    }

    /// The summaries and the waits' tallies, in the experiments' order.
    func run(jobs: Int) throws -> [WaitsOutcome] {
        let results = try ParallelWork.map(tasks.count, jobs: jobs) { item -> (summary: Summary?, tally: WaitTally) in
            switch self.tasks[item] {
            case .fill(let experiment, let chunk):
                defer { self.chunksDone[experiment].signal() }
                let tally = try self.experiments[experiment].fill(
                    chunk: chunk, seed: self.seeds[experiment], algorithm: self.algorithm, into: self.buffer(experiment)
                )
                return (nil, tally)
            case .summarize(let experiment):
                // Its chunks were all taken before it, by threads that are running them now.
                for _ in 0..<self.experiments[experiment].chunkCount { self.chunksDone[experiment].wait() }
                let values = self.buffer(experiment)
                defer { self.release(experiment) }
                return (Summary(reordering: values.base, quantiles: [0.5, 0.9, 0.99]), WaitTally())
            }
        }
        // Each experiment's tasks are its chunks, then its summary: sum the tallies up to the summary.
        var outcomes: [WaitsOutcome] = []
        var tally = WaitTally()
        for result in results {
            tally = tally + result.tally
            if let summary = result.summary {
                outcomes.append(WaitsOutcome(summary: summary, waits: tally))
                tally = WaitTally()
            }
        }
        return outcomes
    }

    /// Experiment `experiment`'s values: spare memory if any is large enough, else new memory.
    private func buffer(_ experiment: Int) -> DisjointSlices {
        let runs = experiments[experiment].runs
        return buffers.withLock { buffers in
            let buffer =
                if let held = buffers.held[experiment] {
                    held
                } else if let fit = buffers.spare.firstIndex(where: { $0.base.count >= runs }) {
                    buffers.spare.remove(at: fit)
                } else {
                    // None fits: free them, so spares never add to what the experiments hold.
                    Self.allocate(runs, freeing: &buffers.spare)
                }
            buffers.held[experiment] = buffer
            return DisjointSlices(.init(rebasing: buffer.base[..<runs]))
        }
    }

    private static func allocate(_ count: Int, freeing spare: inout [DisjointSlices]) -> DisjointSlices {
        for buffer in spare { buffer.base.deallocate() }
        spare.removeAll()
        return DisjointSlices(.allocate(capacity: count))
    }

    /// Hands experiment `experiment`'s memory back for the next experiment.
    private func release(_ experiment: Int) {
        buffers.withLock { buffers in
            if let buffer = buffers.held[experiment] { buffers.spare.append(buffer) }
            buffers.held[experiment] = nil
        }
    }

    deinit {
        // After a failed chunk, some buffers were never handed back.
        buffers.withLock { buffers in
            for buffer in buffers.held { buffer?.base.deallocate() }
            for buffer in buffers.spare { buffer.base.deallocate() }
        }
    }
}
