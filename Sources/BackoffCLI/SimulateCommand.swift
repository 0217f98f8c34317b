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
        steady level.
        """
    static let defaultJitter = "none,full,equal,decorrelated"
    static let timeline = Option<String?>.optional(
        "timeline", "file", form: "a file path",
        help: "Also write the load per bucket to this file (jitter,bucket_start_s,attempts,retries,successes,failures,...).",
        parse: Parsers.text)
    static let specs = PolicyOptions.specs(defaultJitter: defaultJitter) + [ScenarioOptions.clients.spec] + ScenarioOptions.specs
        + [ScenarioOptions.bucket.spec, timeline.spec] + RunOptions.seedSpecs + [RunOptions.jobsSpec, TableOptions.output.spec]
    static let columns: [(name: String, meaning: String)] = [
        ("jitter", "jitter mode"),
        ("clients", "clients N (sessions that arrived)"),
        ("server", "server model"),
        ("base_s", "base b, seconds"),
        ("multiplier", "multiplier m"),
        ("cap_s", "cap c, seconds (inf: no cap)"),
        ("max_attempts", "attempts per request n"),
        ("seed", "root seed"),
        ("attempts_total", "attempts made by all clients"),
        ("attempts_per_client", "attempts_total / N"),
        ("successes", "requests that succeeded"),
        ("give_ups", "requests that ran out of attempts (or time)"),
        ("mean_total_wait_s", "mean per-request total wait, seconds"),
        ("p99_total_wait_s", "99th percentile of the per-request total wait, seconds"),
        ("mean_completion_s", "mean time from a request's first attempt to its end, seconds"),
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
        ("se_successes", "binomial standard error of successes, √(n p (1 - p)), n requests, p = successes / n"),
        ("unique_requests", "requests sent (first attempts)"),
        ("work_amplification", "attempts per request sent"),
        ("rejected", "attempts rejected at once by a full queue (capacity)"),
        ("timeouts", "attempts the client stopped waiting for (capacity with --timeout)"),
        ("wasted_work", "attempts served after their client had timed out"),
        ("permanent_failures", "requests ended by a permanent error at their first attempt"),
        ("requests_lost", "requests given up, plus those never sent because their session ended"),
        ("dead_sessions", "sessions ended by a request that gave up (--on-give-up end-session)"),
        ("drain_time_s", "end of the outage or degradation to the end of the last bucket with load above L + 3√L, seconds (empty: no such end)"),
        ("goodput", "successful requests per second, until the last request ended"),
        ("last_completion_s", "when the last request ended, seconds from t = 0 (the 2015 study's completion time)"),
        ("peak_queue", "most attempts waiting in the capacity server's queue at once"),
        ("formula_peak_load", "closed-form expected attempts in the busiest bucket (outage, burst; empty otherwise)"),
        ("formula_peak_load_time_s", "start of that bucket, seconds"),
        ("formula_peak_retry_load", "closed-form expected retries in the busiest bucket"),
        ("formula_peak_retry_time_s", "start of that bucket, seconds"),
        ("retry_fraction", "retries (attempts after a request's first) as a fraction of all attempts"),
        ("budget_denials", "retries the retry budget refused (each ended its request)"),
        ("local_rejections", "attempts the breaker or throttle refused to send (each ended its request)"),
        ("recovered", "capacity with a degradation window: yes when goodput over 1 s reached 90 % of its pre-trigger level within 10 s of the window's end, no otherwise (empty: no window)"),
        ("recovery_time_s", "when it did, seconds after the window's end (empty: never, or no window)"),
    ]
    static let example = "backoff simulate --clients 10000 --server outage:2s --max-attempts 8 --timeline load.csv"
    static let timelineHeader = "jitter,bucket_start_s,attempts,retries,successes,failures,rejected,timeouts,expected_attempts,expected_retries,peak_queue"

    let policy: PolicyOptions
    let randomness: RunOptions
    let scenarios: [Scenario]
    let serverText: String
    let timelinePath: String?
    let outputPath: String?
    let warnings: [String]

    init(_ options: ParsedOptions) throws(CommandLineError) {
        policy = try PolicyOptions(options, defaultJitter: Self.defaultJitter)
        randomness = try RunOptions(options)
        let scenario = try ScenarioOptions(options, policies: policy.policies)
        scenarios = scenario.scenarios
        serverText = scenario.serverText
        warnings = policy.warnings + scenario.warnings
        timelinePath = try options(Self.timeline)
        outputPath = try options(TableOptions.output)
        if let timelinePath, timelinePath == outputPath {
            throw .usage("'--timeline' and '--output' name the same file '\(timelinePath)'", command: Self.name)
        }
    }

    func run() throws(CommandLineError) -> CSVTable {
        let timelineFile = try timelinePath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        let (scenarios, rootSeed, generator) = (scenarios, randomness.seed, randomness.generator)
        let reports: [ScenarioReport]
        let expectedLoads: [OutageLoad?]
        do {
            // Each mode's run and its expected load (a convolution) side by side.
            let results = try ParallelWork.map(2 * scenarios.count, jobs: randomness.jobs) { item -> (ScenarioReport?, OutageLoad?) in
                let scenario = scenarios[item / 2]
                guard item % 2 == 0 else { return (nil, scenario.expectedLoad) }
                let seed = RandomStream.seed(root: rootSeed, jitter: scenario.policy.jitter)
                let arrivalSeed = RandomStream.arrivalSeed(root: rootSeed)
                return (try scenario.run(seed: seed, arrivalSeed: arrivalSeed, algorithm: generator), nil)
            }
            reports = stride(from: 0, to: results.count, by: 2).map { results[$0].0! }
            expectedLoads = stride(from: 1, to: results.count, by: 2).map { results[$0].1 }
        } catch let error as SimulationError {
            throw .failure("\(error)")
        } catch {
            throw .failure("\(error)")
        }

        var table = CSVTable(header: Self.columns.map(\.name))
        for ((scenario, report), load) in zip(zip(scenarios, reports), expectedLoads) {
            table.append(row(scenario, report, load: load))
        }

        if let timelineFile {
            timelineFile.write(Self.timelineHeader + "\n")
            for ((scenario, report), load) in zip(zip(scenarios, reports), expectedLoads) {
                let timeline = report.timeline
                let clients = Double(report.clients)
                var chunk = ""
                for index in 0..<timeline.bucketCount {
                    chunk += "\(scenario.policy.jitter.name),\(CSVFormat.number(timeline.bucketStart(index).seconds)),"
                    let bucket = timeline.buckets[index]
                    chunk += "\(bucket.attempts),\(bucket.retries),"
                    chunk += "\(bucket.successes),\(bucket.failures),"
                    chunk += "\(bucket.rejected),\(bucket.timeouts),"
                    let expected = load.map { load in
                        index < load.attemptsPerBucket.count
                            ? (load.attemptsPerBucket[index] * clients, load.retriesPerBucket[index] * clients) : (0, 0)
                    }
                    chunk += "\(CSVFormat.number(expected?.0)),\(CSVFormat.number(expected?.1)),\(bucket.peakQueue)\n"
                }
                timelineFile.write(chunk)
            }
            try timelineFile.commit()
        }
        return table
    }

    private func row(_ scenario: Scenario, _ report: ScenarioReport, load: OutageLoad?) -> [String] {
        let policy = scenario.policy
        let peak = report.timeline.peakLoad
        let retryPeak = report.timeline.peakRetryLoad
        let formula = scenario.closedForm(expectedLoad: load)
        let clients = Double(report.clients)
        let threshold = scenario.steadyFirstAttemptsPerBucket + 3 * scenario.steadyFirstAttemptsPerBucket.squareRoot()
        let drain = scenario.triggerEnd.map { report.timeline.drainTime(after: $0, threshold: threshold) }
        return [policy.jitter.name, String(report.clients), serverText] + PolicyOptions.columns(policy) + [
            String(randomness.seed), String(report.attempts), CSVFormat.number(report.attemptsPerClient),
            String(report.successes), String(report.giveUps),
            CSVFormat.number(report.totalWait.mean), CSVFormat.number(report.totalWait.quantile(0.99)),
            CSVFormat.number(report.meanCompletion),
            String(peak.attempts), CSVFormat.number(peak.start.seconds),
            String(retryPeak.attempts), CSVFormat.number(retryPeak.start.seconds),
            CSVFormat.seconds(nanoseconds: scenario.bucketWidth),
            CSVFormat.number(formula?.attemptsPerClient), CSVFormat.number(formula?.meanTotalWait),
            CSVFormat.number(formula.map { $0.successFraction * clients }),
        ] + PolicyOptions.extraColumns(policy) + [
            randomness.generator.rawValue, CSVFormat.number(report.attemptsStandardError),
            CSVFormat.number(report.totalWait.standardError), CSVFormat.number(report.successesStandardError),
            String(report.uniqueRequests), CSVFormat.number(report.workAmplification),
            String(report.rejected), String(report.timeouts), String(report.wastedWork),
            String(report.permanentFailures), String(report.requestsLost), String(report.deadSessions),
            drain.map { CSVFormat.seconds(nanoseconds: $0) } ?? "", CSVFormat.number(report.goodput),
            CSVFormat.number(report.lastCompletion), String(report.peakQueue),
            CSVFormat.number(load.map { $0.peakAttempts.value * clients }), CSVFormat.number(load?.peakAttempts.start.seconds),
            CSVFormat.number(load.map { $0.peakRetries.value * clients }), CSVFormat.number(load?.peakRetries.start.seconds),
            CSVFormat.number(report.retryFraction), String(report.budgetDenials), String(report.localRejections),
        ] + recovery(scenario, report)
    }

    /// `recovered,recovery_time_s` for a capacity server with a degradation window.
    private func recovery(_ scenario: Scenario, _ report: ScenarioReport) -> [String] {
        guard case .capacity(let model) = scenario.server, let window = model.degradation else { return ["", ""] }
        let time = report.timeline.recoveryTime(triggerStart: window.start, triggerEnd: window.end)
        return [time == nil ? "no" : "yes", time.map { CSVFormat.seconds(nanoseconds: $0) } ?? ""]
    }
}
