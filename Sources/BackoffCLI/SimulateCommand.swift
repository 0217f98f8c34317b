import BackoffPolicies
import EventSimulation
import Parallelism
import RetrySimulation
import Stochastics

/// `backoff simulate`: many clients against a failing server; waits, outcomes and load peaks.
struct SimulateCommand: BackoffCommand {
    static let name = "simulate"
    static let abstract = "Simulate clients retrying against a failing server: waits, outcomes, load peaks, drain time."
    static let discussion = """
        One row per jitter mode: attempts, outcomes, total waits, and the server's load per time bucket, \
        whose peak is reported for all attempts and for retries only (the first attempts of a burst \
        always fill bucket 0). Servers: always-fail; bernoulli:P, each attempt fails with probability P; \
        outage:T, every attempt before T fails and every attempt at or after T succeeds (these three answer \
        at once); contention, one item under optimistic concurrency, an attempt being a read and a \
        conditional write, each a round trip of two |N(--hop, --hop-sd)| hops (AWS Architecture Blog, 2015); \
        capacity, --workers serving a FIFO queue of --queue places with --service times, rejecting \
        attempts that find it full, with an optional degradation window. drain_time_s is the time from the \
        end of the outage or degradation to the end of the last bucket whose attempts exceed L + 3√L, L \
        being the expected first attempts per bucket (0 after a burst): after it the load stays at the \
        steady level. With --layer SPEC (repeatable, top to bottom) services sit between the clients and the \
        server, each retrying under its own policy: attempts_total stays the server's load, client_attempts \
        is what the clients sent, and --layer-report FILE has a row per layer. With --hedge (capacity, \
        --replicas) each attempt's copies go to distinct replicas: copies_per_request, mean_response_s, \
        p99_response_s and work_per_request_s sit beside the closed forms that hold where no copy waits. \
        Clients that do not interact (always-fail, bernoulli, outage or trace, no limits, no layers) run one \
        after the other: a burst of up to 2^40 in constant memory. Past 16,777,216 requests the total waits \
        stream into exact sums and a sketch (quantiles = sketch, within 0.1 %), and the clients are split over \
        --jobs threads; the output is the same for any --jobs.
        """
    static let defaultJitter = "none,full,equal,decorrelated"
    static let timeline = Option<String?>.optional(
        "timeline", "file", form: "a file path",
        help:
            "Also write the load per bucket to this file (jitter,bucket_start_s,attempts,retries,successes,failures,...).",
        parse: Parsers.text
    ).grouped(.output)
    static let requests = Option<String?>.optional(
        "requests", "file", form: "a file path",
        help:
            "Also write one row per request to this file (jitter,client,request,start_s,completion_s,attempts,copies,"
            + "outcome,total_wait_s), for CDF plots; written as the requests end, in bounded memory.",
        parse: Parsers.text
    ).grouped(.output)
    /// No default value: absent, it is 1 and adds nothing to a sweep point's seed or identity, so
    /// sweeps written before it keep their seeds.
    static let replications = Option<Int?>.optional(
        "replications", "count", kind: .count, form: Parsers.countForm(1...Scenario.maximumReplications, example: 10),
        help:
            "Run each mode this many times (default 1): the row stays the first run's (under --seed), and the se_ "
            + "columns become the sd of its means over all the runs, their spread from seed to seed. A burst of "
            + "clients that interact (a capacity, contention or ratelimit server, shared limits, a layer's budget, "
            + "breaker or cap) needs 2 or more for any se_ value: one run is one draw of what they share.",
        parse: Parsers.count(in: 1...Scenario.maximumReplications)
    ).setting(.replications, formStatesRange: true).grouped(.output)
    static let specs =
        PolicyOptions.specs(defaultJitter: defaultJitter) + [ScenarioOptions.clients.spec] + ScenarioOptions.specs
        + [ScenarioOptions.bucket.spec, timeline.spec, requests.spec, hostsReport.spec] + LayerOptions.specs
        + RunOptions.seedSpecs + [replications.spec, RunOptions.jobsSpec] + TableOptions.specs
        + [MemoryLimit.option.spec, WorkLimit.option.spec, ProgressLine.option.spec]
    static var columns: [ColumnDocumentation] { table.map(\.documentation) }
    static let example = "backoff simulate --clients 10000 --server outage:2s --max-attempts 8 --timeline load.csv"

    let policy: PolicyOptions
    private(set) var randomness: RunOptions
    let scenarios: [Scenario]
    let timelinePath: String?
    let layerReportPath: String?
    let hostsReportPath: String?
    let requestsPath: String?
    let outputPath: String?
    let warnings: [String]
    /// Where the bucket's width came from when the user did not give it (`the default`), for a
    /// message that blames it.
    let bucketOrigin: String?

    func reseeded(_ seed: UInt64) -> Self? {
        var command = self
        command.randomness = randomness.reseeded(seed)
        return command
    }

    init(_ options: ParsedOptions) throws(CommandLineError) {
        policy = try PolicyOptions(options, defaultJitter: Self.defaultJitter)
        randomness = try RunOptions(options)
        let stack = try LayerOptions(options, jitters: policy.policies.map(\.jitter))
        let scenario = try ScenarioOptions(options, policies: policy.policies, stack: stack)
        let replications = try options(Self.replications) ?? 1
        var scenarios: [Scenario]
        do {
            scenarios = try scenario.scenarios.map { scenario throws(SimulationError) in
                try scenario.replicated(replications)
            }
        } catch {
            throw .usage("Invalid value '\(replications)' for '--replications': \(error)", command: Self.name)
        }
        var warnings = policy.warnings + stack.warnings + scenario.warnings
        hostsReportPath = try options(Self.hostsReport)
        if hostsReportPath != nil {
            let counting = Self.countingHostLoads(scenarios)
            scenarios = counting.scenarios
            warnings += counting.warnings
        }
        self.scenarios = scenarios
        self.warnings = warnings
        timelinePath = try options(Self.timeline)
        layerReportPath = try options(LayerOptions.report)
        requestsPath = try options(Self.requests)
        outputPath = try options(TableOptions.output)
        bucketOrigin = options.origin(of: ScenarioOptions.bucket.spec)
        let sideFiles = [
            (Self.timeline.name, timelinePath), (LayerOptions.report.name, layerReportPath),
            (Self.requests.name, requestsPath), (Self.hostsReport.name, hostsReportPath),
        ]
        for (index, side) in sideFiles.enumerated() {
            try AtomicFileWriter.checkDistinct(table: outputPath, side: side, command: Self.name)
            for other in sideFiles[..<index] {
                guard let path = side.1, let otherPath = other.1, AtomicFileWriter.sameFile(path, otherPath) else {
                    continue
                }
                throw .usage("'--\(other.0)' and '--\(side.0)' name the same file '\(side.1!)'", command: Self.name)
            }
        }
    }

    /// The largest scenario's run, times the modes run at once (`--jobs`), and the `--timeline` text.
    var simulatedScenarios: [Scenario] { scenarios }

    var memoryEstimate: MemoryEstimate {
        let runs = scenarios.map(\.memoryEstimate)
        let largest = runs.max { $0.bytes < $1.bytes } ?? MemoryEstimate()
        let together = min(randomness.jobs, scenarios.count)
        var estimate = largest.times(together, "\(together) modes at once")
        if timelinePath != nil, let scenario = scenarios.first {
            let buckets =
                runs.map { $0.items.last?.bytes ?? 0 }.reduce(0, +) / 3
                / Double(MemoryLayout<LoadTimeline.Bucket>.stride)
            estimate =
                estimate
                + MemoryEstimate([
                    .init(
                        parameter: "--timeline with --bucket \(scenario.bucketWidth.unitText)",
                        what: "\(MemoryEstimate.count(buckets)) timeline rows of about 100 bytes", bytes: buckets * 100)
                ])
        }
        return estimate
    }

    func run() throws(CommandLineError) -> CSVTable { try run(progress: nil) }

    func run(progress: RunProgress) throws(CommandLineError) -> CSVTable { try run(progress: Optional(progress)) }

    private func run(progress: RunProgress?) throws(CommandLineError) -> CSVTable {
        let timelineFile = try timelinePath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        let layerFile = try layerReportPath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        let requestsFile = try requestsPath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        let hostsFile = try hostsReportPath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        let (scenarios, rootSeed, generator) = (scenarios, randomness.seed, randomness.generator)
        // Threads beyond one per mode go to each mode's clients (used by runs that split them).
        let jobsPerMode = max(1, randomness.jobs / scenarios.count)
        let reports: [ScenarioReport]
        let expectedLoads: [OutageLoad?]
        let requestRows: [RequestRows.Finished]
        do {
            // Each mode's expected load (a convolution), then each mode's run: a lone mode's run
            // then has the threads to itself (a nested parallel map would run on one).
            expectedLoads = try ParallelWork.map(scenarios.count, jobs: randomness.jobs) { scenarios[$0].expectedLoad }
            let results = try ParallelWork.map(scenarios.count, jobs: randomness.jobs) {
                item -> (ScenarioReport, RequestRows.Finished?) in
                let scenario = scenarios[item]
                let seed = RandomStream.seed(root: rootSeed, jitter: scenario.policy.jitter)
                let arrivalSeed = RandomStream.arrivalSeed(root: rootSeed)
                let rows = try requestsPath.map { path throws(CommandLineError) in
                    try RequestRows(jitter: scenario.policy.jitter.name, path: path)
                }
                let report = try scenario.run(
                    seed: seed, arrivalSeed: arrivalSeed, algorithm: generator, requestLog: rows, jobs: jobsPerMode,
                    progress: progress)
                return (report, try rows?.finish())
            }
            reports = results.map(\.0)
            requestRows = results.compactMap(\.1)
        } catch let error as SimulationError {
            // What a run finds too large for its limits is the input's doing: a usage error.
            switch error {
            case .tooManyBuckets:
                let width = scenarios.first?.bucketWidth.unitText ?? ""
                let origin = bucketOrigin.map { " (\($0))" } ?? ""
                throw .usage(
                    "Invalid value '\(width)'\(origin) for '\(ScenarioOptions.bucket.spec.usage)': \(error)",
                    command: Self.name)
            case .beyondHorizon, .tooManyClients, .tooManyCalls:
                throw .usage("\(error)", command: Self.name)
            default:
                throw .failure("\(error)")
            }
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw .failure("\(error)")
        }
        if let requestsFile {
            requestsFile.write(Self.requestColumns.header().joined(separator: ",") + "\n")
            for rows in requestRows { try RequestRows.append(rows, to: requestsFile) }
            try requestsFile.commit()
        }

        var table = CSVTable(header: Self.header)
        var rows: [SimulateRow] = []
        for ((scenario, report), load) in zip(zip(scenarios, reports), expectedLoads) {
            let fluid: FluidPrediction?
            do { fluid = try scenario.fluidPrediction() } catch {
                // The run stands without its prediction: empty fluid_ cells, said on stderr.
                fluid = nil
                table.notes.append("jitter \(scenario.policy.jitter.name): no fluid prediction (\(error))")
            }
            rows.append(
                SimulateRow(
                    scenario: scenario, report: report, load: load, seed: randomness.seed, generator: generator,
                    fluid: fluid))
        }
        for row in rows { table.append(Self.table.row(row)) }
        let unmeasured = rows.filter { $0.report.errorMethod == .unmeasured }.map(\.scenario.policy.jitter.name)
        if !unmeasured.isEmpty {
            table.notes.append(
                "the se_ columns are empty (jitter \(unmeasured.joined(separator: ", "))): the clients started "
                    + "together and met at the server or its limits, so one run is one draw of what they share and "
                    + "cannot measure how its means vary; --replications 10 measures it")
        }

        if let timelineFile {
            Self.writeTimeline(of: rows, to: timelineFile)
            try timelineFile.commit()
        }
        if let layerFile {
            layerFile.write(Self.layerReportText(of: rows))
            try layerFile.commit()
        }
        if let hostsFile {
            hostsFile.write(Self.hostsReportText(of: rows))
            try hostsFile.commit()
        }
        return table
    }
}
