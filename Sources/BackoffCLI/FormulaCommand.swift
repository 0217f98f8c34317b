import BackoffPolicies

/// `backoff formula`: the closed forms of a policy, one row per jitter mode.
struct FormulaCommand: BackoffCommand {
    static let name = "formula"
    static let abstract = "Print the closed forms of a policy: mean and standard deviation of the total wait, its range, where the cap binds."
    static let discussion = """
        The total wait is the sum of the waits of one request whose every attempt fails. none: Σ e_k; \
        full: Σ e_k / 2, variance Σ e_k² / 12; equal: 3 Σ e_k / 4, variance Σ e_k² / 48; decorrelated: an exact \
        recursion, integrated numerically when the cap binds. e_k = min(c, b m^(k-1)) for the exponential schedule.
        """
    static let specs =
        PolicyOptions.specs(defaultJitter: "none,full,equal,decorrelated") + [
            OptionSpec(
                name: "wait-budget", valueName: "duration",
                help: "Also report the most attempts whose expected total wait stays within this duration.",
                defaultValue: nil, form: OptionSpec.durationForm),
            .output,
        ]
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
    ]
    static let example = "backoff formula --base 100ms --multiplier 2 --cap 5s --max-attempts 5"

    let policy: PolicyOptions
    let waitBudget: Duration?
    let outputPath: String?

    init(_ options: ParsedOptions) throws(CommandLineError) {
        policy = try PolicyOptions(options)
        waitBudget = try options.value("wait-budget", ValueParser.duration)
        outputPath = options.text("output")
    }

    var header: [String] {
        let names = Self.columns.map(\.name)
        return waitBudget == nil ? Array(names.dropLast(2)) : names
    }

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
            table.append(row)
        }
        return table
    }
}
