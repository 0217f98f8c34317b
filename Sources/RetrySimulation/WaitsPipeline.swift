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
final class WaitsPipeline: Sendable {
    private enum Task {
        case fill(experiment: Int, chunk: Int)
        case summarize(experiment: Int)
    }

    private let experiments: [WaitsExperiment]
    private let seeds: [UInt64]
    private let algorithm: GeneratorAlgorithm
    private let tasks: [Task]
    /// Each experiment's values, allocated by its first chunk and freed after its summary.
    private let buffers: Mutex<[DisjointSlices?]>
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
        buffers = Mutex([DisjointSlices?](repeating: nil, count: experiments.count))
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

    private func buffer(_ experiment: Int) -> DisjointSlices {
        buffers.withLock { buffers in
            if let buffer = buffers[experiment] { return buffer }
            let buffer = DisjointSlices(.allocate(capacity: experiments[experiment].runs))
            buffers[experiment] = buffer
            return buffer
        }
    }

    private func release(_ experiment: Int) {
        buffers.withLock { buffers in
            buffers[experiment]?.base.deallocate()
            buffers[experiment] = nil
        }
    }

    deinit {
        // After a failed chunk, some buffers were never handed over.
        buffers.withLock { buffers in
            for buffer in buffers { buffer?.base.deallocate() }
        }
    }
}
