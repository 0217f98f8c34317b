import BackoffPolicies
import RetrySimulation
import Stochastics

/// `backoff waits`: the distribution of total waits over many runs, next to the closed forms.
struct WaitsCommand: BackoffCommand {
    static let name = "waits"
    static let abstract =
        "Simulate R requests whose every attempt fails and summarise their total waits beside the closed forms."
    static let discussion = """
        One row per jitter mode. z_score = (mean - formula mean) / standard error: |z| > 4 means the \
        simulation and the formula disagree beyond sampling error. Up to 16,777,216 runs the quantiles are \
        exact; beyond, they come from a log-bucketed sketch within 0.1 % of the exact ones (column \
        quantiles = sketch) and memory stays constant.
        """
    static let defaultJitter = "none,full,equal,decorrelated"
    static let runs = Option(
        "runs", "count", kind: .count, default: "10000", form: Parsers.countForm(runRange, example: 10000),
        help: "Independent requests per jitter mode.", parse: Parsers.count(in: runRange))
    static let runRange = 1...1_000_000_000_000
    static let samples = Option<String?>.optional(
        "samples", "file", form: "a file path",
        help: "Also write every run's total wait to this file (columns jitter,run,total_wait_s).",
        parse: Parsers.text)
    static let waitSamples = Option<String?>.optional(
        "wait-samples", "file", form: "a file path",
        help: "Also write every retry's wait of every run to this file (columns jitter,run,retry,wait_s): the same "
            + "draws as the table's, so a run's waits add up to its total.",
        parse: Parsers.text)
    static let specs =
        PolicyOptions.specs(defaultJitter: defaultJitter) + [runs.spec, samples.spec, waitSamples.spec]
        + RunOptions.seedSpecs
        + [RunOptions.jobsSpec] + TableOptions.specs + [MemoryLimit.option.spec]
    /// What one row is written from: one jitter mode's experiment.
    struct Row {
        let policy: BackoffPolicy
        let summary: Summary
        let waits: WaitTally
        let runs: Int
        let seed: UInt64
        let generator: GeneratorAlgorithm
        /// The closed form's moments (`nil` with --max-elapsed and jitter), computed once: for
        /// decorrelated jitter they are a numerical integration.
        let formula: TotalWaitMoments?

        /// The closed form's expected share of waits at the cap.
        let formulaAtCap: Double?

        init(policy: BackoffPolicy, outcome: WaitsOutcome, runs: Int, seed: UInt64, generator: GeneratorAlgorithm) {
            (self.policy, summary, waits) = (policy, outcome.summary, outcome.waits)
            (self.runs, self.seed, self.generator) = (runs, seed, generator)
            let closedForm = policy.closedForm
            (formula, formulaAtCap) = (closedForm?.moments, closedForm?.atCapFraction)
        }
    }

    /// The table's columns, in order; new columns go at the end.
    static let table: [Column<Row>] =
        [PolicyColumns.jitter { $0.policy }] + PolicyColumns.leading { $0.policy } + [
            Column("runs", "simulated requests R") { String($0.runs) }.parameter(),
            Column("seed", "root seed (the mode's stream seed is derived from it)") { String($0.seed) }.parameter(),
            Column(ClosedFormMean.meanTotalWait.column, "mean total wait, seconds") {
                CSVFormat.number($0.summary.mean)
            },
            Column("sd_total_wait_s", "sample standard deviation of the total wait, seconds") {
                CSVFormat.number($0.summary.standardDeviation)
            },
            Column(ClosedFormMean.meanTotalWait.standardErrorColumn, "standard error of the mean, sd / √R, seconds") {
                CSVFormat.number($0.summary.standardError)
            },
            Column("p50_total_wait_s", "median total wait (quantiles: type 7), seconds") {
                CSVFormat.number($0.summary.quantile(0.5))
            },
            Column("p90_total_wait_s", "90th percentile, seconds") { CSVFormat.number($0.summary.quantile(0.9)) },
            Column("p99_total_wait_s", "99th percentile, seconds") { CSVFormat.number($0.summary.quantile(0.99)) },
            Column("max_total_wait_s", "largest total wait seen, seconds") { CSVFormat.number($0.summary.maximum) },
            Column(
                ClosedFormMean.meanTotalWait.formulaColumn,
                "closed-form E[W], seconds (empty: none, i.e. --max-elapsed with jitter)"
            ) {
                CSVFormat.number($0.formula?.mean)
            },
            Column("formula_sd_total_wait_s", "closed-form standard deviation, seconds") {
                CSVFormat.number($0.formula?.standardDeviation)
            },
            Column("z_score", "(mean - formula mean) / standard error: |z| > 4 means disagreement") { row in
                CSVFormat.number(
                    row.formula.map {
                        // Waits are whole nanoseconds: each may differ from the formula by 0.5 ns.
                        MeanCheck(
                            observed: row.summary.mean, expected: $0.mean, standardError: row.summary.standardError,
                            exactTolerance: Double(row.policy.maxAttempts) * 1e-9
                        ).z
                    })
            },
            Column("min_total_wait_s", "smallest total wait seen, seconds") { CSVFormat.number($0.summary.minimum) },
            Column(
                "quantiles",
                "exact, or sketch (above 16,777,216 runs, where memory stays constant: a log-bucketed histogram, within "
                    + "0.1 % of the exact quantiles)"
            ) {
                $0.summary.quantilesAreExact ? "exact" : "sketch"
            }.holdingText().parameter(),
        ] + PolicyColumns.trailing { $0.policy } + [
            Column("generator", "GSL generator") { $0.generator.rawValue }.holdingText().parameter(),
            PolicyColumns.capMode { $0.policy },
            Column("at_cap_fraction", "measured share of all waits drawn that equal the cap (empty: no wait drawn)") {
                CSVFormat.number($0.waits.atCapFraction)
            },
            Column("formula_at_cap_fraction", "closed-form expected share of waits at the cap (empty: no closed form)")
            {
                CSVFormat.number($0.formulaAtCap)
            },
        ] + PolicyColumns.shape { $0.policy }

    static var columns: [ColumnDocumentation] { table.map(\.documentation) }

    static let example = "backoff waits --runs 100000 --jitter full,equal --base 100ms --cap 5s --max-attempts 6"

    let policy: PolicyOptions
    private(set) var randomness: RunOptions
    let runs: Int
    let experiments: [WaitsExperiment]
    let samplesPath: String?
    let waitSamplesPath: String?
    let outputPath: String?

    func reseeded(_ seed: UInt64) -> Self? {
        var command = self
        command.randomness = randomness.reseeded(seed)
        return command
    }

    init(_ options: ParsedOptions) throws(CommandLineError) {
        policy = try PolicyOptions(options, defaultJitter: Self.defaultJitter)
        randomness = try RunOptions(options)
        let runs = try options(Self.runs)
        self.runs = runs
        do {
            experiments = try policy.policies.map { try WaitsExperiment(policy: $0, runs: runs) }
        } catch {
            throw options.invalid(Self.runs)  // the one range an experiment checks: at least 1 run
        }
        samplesPath = try options(Self.samples)
        waitSamplesPath = try options(Self.waitSamples)
        outputPath = try options(TableOptions.output)
        try AtomicFileWriter.checkDistinct(
            table: outputPath, side: (Self.samples.name, samplesPath), command: Self.name)
        try AtomicFileWriter.checkDistinct(
            table: outputPath, side: (Self.waitSamples.name, waitSamplesPath), command: Self.name)
        if let samplesPath, let waitSamplesPath, AtomicFileWriter.sameFile(samplesPath, waitSamplesPath) {
            throw .usage("'--samples' and '--wait-samples' name the same file '\(waitSamplesPath)'", command: Self.name)
        }
    }

    private struct ModeResult: Sendable {
        let outcome: WaitsOutcome
        let samples: [Int64]?
    }

    var warnings: [String] { policy.warnings }

    /// The runs kept for exact quantiles (8 bytes each) for the modes summarised at once, or the
    /// chunks in flight when streaming; with `--samples`, every total wait of every mode.
    var memoryEstimate: MemoryEstimate {
        let modes = Double(experiments.count)
        let kept = Double(min(runs, WaitsExperiment.defaultExactQuantileLimit))
        let streaming = runs > WaitsExperiment.defaultExactQuantileLimit
        let held =
            streaming
            ? Double(randomness.jobs * WaitsExperiment.chunkSize) : kept * min(modes, Double(randomness.jobs + 1))
        var items: [MemoryEstimate.Item] = [
            .init(
                parameter: "--runs \(runs)", what: "\(MemoryEstimate.count(held)) total waits held, 8 bytes each",
                bytes: held * 8)
        ]
        if samplesPath != nil {
            items.append(
                .init(
                    parameter: "--samples with --runs \(runs)",
                    what: "\(MemoryEstimate.count(Double(runs) * modes)) samples held until written, 8 bytes each",
                    bytes: Double(runs) * modes * 8))
        }
        return MemoryEstimate(items)
    }

    func run() throws(CommandLineError) -> CSVTable {
        let samplesFile = try samplesPath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        let waitSamplesFile = try waitSamplesPath.map { path throws(CommandLineError) in
            try AtomicFileWriter(path: path)
        }
        let (rootSeed, generator, jobs) = (randomness.seed, randomness.generator, randomness.jobs)
        let seeds = experiments.map { RandomStream.seed(root: rootSeed, jitter: $0.policy.jitter) }
        let results: [ModeResult]
        do {
            if samplesFile == nil {
                // Every mode's chunks share one pool of threads; then the summaries run side by side.
                results = try WaitsExperiment.measure(experiments, seeds: seeds, algorithm: generator, jobs: jobs)
                    .map { ModeResult(outcome: $0, samples: nil) }
            } else {
                results = try zip(experiments, seeds).map { experiment, seed in
                    var samples: [Int64] = []
                    samples.reserveCapacity(experiment.runs)
                    let outcome = try experiment.measure(seed: seed, algorithm: generator, jobs: jobs) {
                        samples.append($0)
                    }
                    return ModeResult(outcome: outcome, samples: samples)
                }
            }
        } catch {
            throw .failure("\(error)")
        }

        var table = CSVTable(header: Self.table.header())
        for (policy, result) in zip(policy.policies, results) {
            table.append(
                Self.table.row(
                    Row(
                        policy: policy, outcome: result.outcome, runs: runs, seed: randomness.seed,
                        generator: randomness.generator)))
        }

        if let samplesFile {
            samplesFile.write(Self.sampleColumns.header().joined(separator: ",") + "\n")
            for (policy, result) in zip(policy.policies, results) {
                var chunk = ""
                for (run, total) in (result.samples ?? []).enumerated() {
                    chunk += Self.sampleColumns.row((policy.jitter.name, run + 1, total)).joined(separator: ",") + "\n"
                    if chunk.utf8.count > 1 << 16 {
                        samplesFile.write(chunk)
                        chunk = ""
                    }
                }
                samplesFile.write(chunk)
            }
            try samplesFile.commit()
        }
        if let waitSamplesFile {
            try writeWaitSamples(to: waitSamplesFile, seeds: seeds)
        }
        return table
    }
}
