import BackoffPolicies
import EventSimulation
import RetrySimulation

/// `backoff formula`: the closed forms of a policy, one row per jitter mode.
struct FormulaCommand: BackoffCommand {
    static let name = "formula"
    static let abstract = "Print the closed forms of a policy: mean and standard deviation of the total wait, its range, where the cap binds."
    static let discussion = """
        The total wait is the sum of the waits of one request whose every attempt fails. none: Σ e_k; \
        full: Σ e_k / 2, variance Σ e_k² / 12; equal: 3 Σ e_k / 4, variance Σ e_k² / 48; decorrelated: an exact \
        recursion, integrated numerically when the cap binds. e_k = min(c, b m^(k-1)) for the exponential schedule.
        """
    static let defaultJitter = "none,full,equal,decorrelated"
    static let waitBudget = Option<Duration?>.optional(
        "wait-budget", "duration", kind: .duration, form: OptionSpec.durationForm,
        help: "Also report the most attempts whose expected total wait stays within this duration.", parse: Parsers.duration)
    static let outage = Option<Duration?>.optional(
        "outage", "duration", kind: .duration, form: OptionSpec.durationForm,
        help: "Also report the expected load of --clients clients failing at t = 0 against an outage of this length.",
        parse: Parsers.duration)
    static let clients = Option(
        "clients", "count", kind: .count, default: "1000", form: "a whole number >= 1, e.g. 1000",
        help: "With --outage: the clients of the burst.", parse: Parsers.count(atLeast: 1))
    static let bucket = Option(
        "bucket", "duration", kind: .duration, default: "10ms", form: "a duration greater than 0 with a unit, e.g. 10ms",
        help: "With --outage: the width of a load bucket.", parse: Parsers.form(ValueParser.duration, where: { $0 > .zero }))
    static let specs = PolicyOptions.specs(defaultJitter: defaultJitter) + [waitBudget.spec, outage.spec, clients.spec, bucket.spec]
        + [TableOptions.output.spec]
    static let columns: [(name: String, meaning: String)] = [
        ("jitter", "jitter mode"),
        ("base_s", "base b, seconds"),
        ("multiplier", "multiplier m (1 for schedules other than exponential)"),
        ("cap_s", "cap c, seconds (inf: no cap)"),
        ("max_attempts", "attempts per request n"),
        ("mean_total_wait_s", "expected total wait E[W], seconds (empty: no closed form, i.e. --max-elapsed with jitter)"),
        ("sd_total_wait_s", "standard deviation of the total wait, seconds"),
        ("min_total_wait_s", "smallest possible total wait, seconds"),
        ("max_total_wait_s", "largest possible total wait, seconds"),
        ("first_capped_retry", "first retry whose wait the cap can limit (empty: the cap never binds)"),
        ("schedule", "exponential, constant, linear or immediate"),
        ("decorrelated_factor", "r of decorrelated jitter (empty for other modes)"),
        ("max_elapsed_s", "total-time limit, seconds (inf: none)"),
        ("wait_budget_s", "with --wait-budget: the budget T, seconds"),
        ("max_attempts_within_budget", "with --wait-budget: the most attempts n with E[W(n)] <= T (inf: any n)"),
        ("outage_s", "with --outage: the outage T, seconds"),
        ("clients", "with --outage: the clients N of the burst"),
        ("bucket_s", "with --outage: the bucket width, seconds"),
        ("outage_attempts_per_client", "with --outage: expected attempts per client (empty for decorrelated jitter)"),
        ("outage_mean_total_wait_s", "with --outage: expected total wait per client, seconds"),
        ("outage_success_fraction", "with --outage: probability that a client succeeds within its attempts"),
        ("outage_peak_load", "with --outage: expected attempts in the busiest bucket"),
        ("outage_peak_load_time_s", "with --outage: start of that bucket, seconds"),
        ("outage_peak_retry_load", "with --outage: expected retries in the busiest bucket"),
        ("outage_peak_retry_time_s", "with --outage: start of that bucket, seconds"),
    ]
    static let example = "backoff formula --base 100ms --multiplier 2 --cap 5s --max-attempts 5"

    let policy: PolicyOptions
    let waitBudget: Duration?
    let outage: (end: Duration, clients: Int, bucket: Duration)?
    let outputPath: String?

    init(_ options: ParsedOptions) throws(CommandLineError) {
        policy = try PolicyOptions(options, defaultJitter: Self.defaultJitter)
        waitBudget = try options(Self.waitBudget)
        if let end = try options(Self.outage) {
            outage = (end, try options(Self.clients), try options(Self.bucket))
        } else {
            outage = nil
        }
        outputPath = try options(TableOptions.output)
    }

    var header: [String] {
        let names = Self.columns.map(\.name)
        let base = Array(names.prefix(13))
        return base + (waitBudget == nil ? [] : Array(names[13..<15])) + (outage == nil ? [] : Array(names[15...]))
    }

    var warnings: [String] { policy.warnings }

    func run() throws(CommandLineError) -> CSVTable {
        var table = CSVTable(header: header)
        for policy in policy.policies {
            let moments = policy.totalWaitMoments
            let range = policy.totalWaitRange
            var row = [policy.jitter.name] + PolicyOptions.columns(policy) + [
                CSVFormat.number(moments?.mean), CSVFormat.number(moments?.standardDeviation),
                CSVFormat.number(range.lowerBound), CSVFormat.number(range.upperBound),
                policy.firstCappedRetry.map(String.init) ?? "",
            ] + PolicyOptions.extraColumns(policy)
            if let waitBudget {
                let attempts = policy.maxAttempts(expectedTotalWaitAtMost: waitBudget)
                row += [CSVFormat.seconds(waitBudget), attempts.map(String.init) ?? "inf"]
            }
            if let outage {
                let load = OutageLoad(
                    policy: policy, outageEnd: VirtualTime(nanoseconds: Int64(outage.end.nanoseconds)),
                    bucketWidth: Int64(outage.bucket.nanoseconds))
                let clients = Double(outage.clients)
                row += [
                    CSVFormat.seconds(outage.end), String(outage.clients), CSVFormat.seconds(outage.bucket),
                    CSVFormat.number(load?.expectedAttempts), CSVFormat.number(load?.expectedTotalWait),
                    CSVFormat.number(load?.successProbability),
                    CSVFormat.number(load.map { $0.peakAttempts.value * clients }), CSVFormat.number(load?.peakAttempts.start.seconds),
                    CSVFormat.number(load.map { $0.peakRetries.value * clients }), CSVFormat.number(load?.peakRetries.start.seconds),
                ]
            }
            table.append(row)
        }
        return table
    }
}
