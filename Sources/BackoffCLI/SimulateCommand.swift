import BackoffPolicies
import EventSimulation
import RetrySimulation
import Stochastics

/// `backoff simulate`: many clients against a failing server; waits, outcomes and load peaks.
struct SimulateCommand: BackoffCommand {
    static let name = "simulate"
    static let abstract = "Simulate N clients that all make their first attempt at t = 0 against a failing server."
    static let discussion = """
        One row per jitter mode: attempts, outcomes, total waits, and the server's load per time bucket, \
        whose peak is reported for all attempts and for retries only (the first attempts of the burst \
        always fill bucket 0). Servers: always-fail; bernoulli:P, each attempt fails with probability P; \
        outage:T, every attempt before T fails and every attempt at or after T succeeds. Attempts take no time.
        """
    static let specs =
        PolicyOptions.specs(defaultJitter: "none,full,equal,decorrelated") + [
            OptionSpec(
                name: "clients", valueName: "count", help: "Clients N, each sending one request at t = 0.",
                defaultValue: "1000", form: "a whole number >= 1, e.g. 1000"),
            OptionSpec(
                name: "server", valueName: "model", help: "Server model: always-fail, bernoulli:P or outage:DURATION.",
                defaultValue: "outage:2s", form: ServerSpec.form),
            OptionSpec(
                name: "bucket", valueName: "duration", help: "Width of a load timeline bucket.",
                defaultValue: "10ms", form: "a duration greater than 0 with a unit, e.g. 10ms"),
            OptionSpec(
                name: "timeline", valueName: "file",
                help: "Also write the load per bucket to this file (jitter,bucket_start_s,attempts,retries,successes,failures).",
                defaultValue: nil, form: "a file path"),
        ] + RunOptions.seedSpecs + [RunOptions.jobsSpec, .output]
    static let columns: [(name: String, meaning: String)] = [
        ("jitter", "jitter mode"),
        ("clients", "clients N"),
        ("server", "server model"),
        ("base_s", "base b, seconds"),
        ("multiplier", "multiplier m"),
        ("cap_s", "cap c, seconds (inf: no cap)"),
        ("max_attempts", "attempts per request n"),
        ("seed", "root seed"),
        ("attempts_total", "attempts made by all clients"),
        ("attempts_per_client", "attempts_total / N"),
        ("successes", "clients whose request succeeded"),
        ("give_ups", "clients that ran out of attempts (or time)"),
        ("mean_total_wait_s", "mean per-client total wait, seconds"),
        ("p99_total_wait_s", "99th percentile of the per-client total wait, seconds"),
        ("mean_completion_s", "mean time at which a client succeeded or gave up, seconds"),
        ("peak_load", "most attempts in one bucket"),
        ("peak_load_time_s", "start of the first bucket with that many, seconds"),
        ("peak_retry_load", "most retries in one bucket"),
        ("peak_retry_time_s", "start of the first bucket with that many, seconds"),
        ("bucket_s", "bucket width, seconds"),
        ("formula_attempts_per_client", "closed-form expected attempts per client (empty: no closed form)"),
        ("formula_mean_total_wait_s", "closed-form expected total wait, seconds (empty: no closed form)"),
        ("formula_successes", "closed-form expected successes (empty: no closed form)"),
        ("schedule", "exponential, constant, linear or immediate"),
        ("decorrelated_factor", "r of decorrelated jitter (empty for other modes)"),
        ("max_elapsed_s", "total-time limit, seconds (inf: none)"),
        ("generator", "GSL generator"),
        ("se_attempts_per_client", "standard error of attempts_per_client (sd of per-client attempts / √N)"),
        ("se_mean_total_wait_s", "standard error of mean_total_wait_s, seconds"),
        ("se_successes", "binomial standard error of successes, √(N p (1 - p)) with p = successes / N"),
    ]
    static let example = "backoff simulate --clients 10000 --server outage:2s --max-attempts 8 --timeline load.csv"

    let policy: PolicyOptions
    let randomness: RunOptions
    let simulations: [HerdSimulation]
    let serverText: String
    let timelinePath: String?
    let outputPath: String?

    init(_ options: ParsedOptions) throws(CommandLineError) {
        policy = try PolicyOptions(options)
        randomness = try RunOptions(options)
        let clients = try options.required("clients", ValueParser.integer, where: { $0 >= 1 })
        let serverOption = options.text("server")!
        guard let server = ServerSpec.model(serverOption) else {
            let name = String(serverOption.prefix { $0 != ":" })
            let detail = ServerSpec.names.contains(name) ? nil : Suggestion.closest(to: name, among: ServerSpec.names)
                .map { "unknown model '\(name)' (did you mean '\($0)'?)" }
            throw options.invalid("server", serverOption, detail: detail)
        }
        let bucket = try options.required("bucket", ValueParser.duration, where: { $0 > .zero })
        serverText = ServerSpec.text(server)
        var simulations: [HerdSimulation] = []
        for policy in policy.policies {
            do {
                simulations.append(try HerdSimulation(
                    clients: clients, server: server, policy: policy, bucketWidth: Int64(bucket.nanoseconds)))
            } catch {
                switch error {
                case .tooManyBuckets, .nonPositiveBucket:
                    throw options.invalid("bucket", options.text("bucket")!, detail: "\(error)")
                default:
                    throw .usage("\(error)", command: Self.name)
                }
            }
        }
        self.simulations = simulations
        timelinePath = options.text("timeline")
        outputPath = options.text("output")
        if let timelinePath, timelinePath == outputPath {
            throw .usage("'--timeline' and '--output' name the same file '\(timelinePath)'", command: Self.name)
        }
    }

    func run() throws(CommandLineError) -> CSVTable {
        let timelineFile = try timelinePath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        let (simulations, rootSeed, generator) = (simulations, randomness.seed, randomness.generator)
        let reports: [HerdReport]
        do {
            reports = try ParallelWork.map(simulations.count, jobs: randomness.jobs) { index in
                let simulation = simulations[index]
                let seed = SeedDerivation.streamSeed(root: rootSeed, stream: simulation.policy.jitter.streamIndex)
                return try simulation.run(seed: seed, algorithm: generator)
            }
        } catch {
            throw .failure("\(error)")
        }

        var table = CSVTable(header: Self.columns.map(\.name))
        for (simulation, report) in zip(simulations, reports) {
            let policy = simulation.policy
            let peak = report.timeline.peakLoad
            let retryPeak = report.timeline.peakRetryLoad
            let formula = simulation.closedForm
            table.append(
                [policy.jitter.name, String(report.clients), serverText] + PolicyOptions.columns(policy) + [
                    String(randomness.seed), String(report.attempts), CSVFormat.number(report.attemptsPerClient),
                    String(report.successes), String(report.giveUps),
                    CSVFormat.number(report.totalWait.mean), CSVFormat.number(report.totalWait.quantile(0.99)),
                    CSVFormat.number(report.meanCompletion),
                    String(peak.attempts), CSVFormat.number(peak.start.seconds),
                    String(retryPeak.attempts), CSVFormat.number(retryPeak.start.seconds),
                    CSVFormat.seconds(nanoseconds: simulation.bucketWidth),
                    CSVFormat.number(formula?.attemptsPerClient), CSVFormat.number(formula?.meanTotalWait),
                    CSVFormat.number(formula.map { $0.successFraction * Double(simulation.clients) }),
                ] + PolicyOptions.extraColumns(policy) + [
                    randomness.generator.rawValue, CSVFormat.number(report.attemptsStandardError),
                    CSVFormat.number(report.totalWait.standardError), CSVFormat.number(report.successesStandardError),
                ])
        }

        if let timelineFile {
            timelineFile.write("jitter,bucket_start_s,attempts,retries,successes,failures\n")
            for (simulation, report) in zip(simulations, reports) {
                let timeline = report.timeline
                var chunk = ""
                for index in 0..<timeline.bucketCount {
                    chunk += "\(simulation.policy.jitter.name),\(CSVFormat.number(timeline.bucketStart(index).seconds)),"
                    chunk += "\(timeline.attempts[index]),\(timeline.retries[index]),"
                    chunk += "\(timeline.successes[index]),\(timeline.failures[index])\n"
                }
                timelineFile.write(chunk)
            }
            try timelineFile.commit()
        }
        return table
    }
}
