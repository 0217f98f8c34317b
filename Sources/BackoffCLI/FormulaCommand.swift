import BackoffPolicies
import EventSimulation
import RetrySimulation

/// `backoff formula`: the closed forms of a policy, one row per jitter mode.
struct FormulaCommand: BackoffCommand {
    static let name = "formula"
    static let abstract =
        "Print the closed forms of a policy: mean and standard deviation of the total wait, its range, where the cap binds."
    static let discussion = """
        The total wait is the sum of the waits of one request whose every attempt fails. none: Σ e_k; \
        full: Σ e_k / 2, variance Σ e_k² / 12; equal: 3 Σ e_k / 4, variance Σ e_k² / 48; proportional:F: Σ e_k, \
        variance F² Σ e_k² / 3; additive:D: Σ e_k + (n-1) D / 2; under --cap-mode clamp each wait is min(c, U(low, high)) \
        of its uncapped window; decorrelated modes: an exact recursion, integrated numerically when the cap binds; \
        polly-v2: a one-dimensional integral (empty when its cap can clamp); exponential: Σ e_k, variance Σ e_k², \
        clamped m (1 - e^(-c/m)) each. e_k = min(c, b m^(k-1)) for the \
        exponential schedule.
        """
    static let defaultJitter = "none,full,equal,decorrelated"
    static let waitBudget = Option<Duration?>.optional(
        "wait-budget", "duration", kind: .duration, form: OptionSpec.durationForm,
        help: "Also report the most attempts whose expected total wait stays within this duration.",
        parse: Parsers.duration)
    static let outage = Option<Duration?>.optional(
        "outage", "duration", kind: .duration, form: OptionSpec.durationForm,
        help: "Also report the expected load of --clients clients failing at t = 0 against an outage of this length.",
        parse: Parsers.duration)
    // The outage's clients and bucket: help lists them with --outage, not in simulate's groups.
    static let clients = ScenarioOptions.clients.withHelp("With --outage: the clients of the burst.").grouped(.command)
    static let bucket = ScenarioOptions.bucket.withHelp("With --outage: the width of a load bucket.").grouped(.command)
    static let specs =
        PolicyOptions.specs(defaultJitter: defaultJitter) + [waitBudget.spec, outage.spec, clients.spec, bucket.spec]
        + capacitySpecs + TableOptions.specs + [MemoryLimit.option.spec]
    /// What one row is written from: a policy, with the budget and the outage when given.
    struct Row {
        let policy: BackoffPolicy
        let waitBudget: Duration?
        let outage: (end: Duration, clients: Int, bucket: Duration)?
        let load: OutageLoad?
        /// With `--server capacity`: the server and its exact answer under `policy`.
        let capacity: Capacity?
        /// The closed forms, computed once (decorrelated jitter's are a numerical integration).
        let moments: TotalWaitMoments?
        let range: ClosedRange<Double>
        let atCapFraction: Double?

        init(
            policy: BackoffPolicy, waitBudget: Duration?, outage: (end: Duration, clients: Int, bucket: Duration)?,
            load: OutageLoad?, capacity: Capacity? = nil
        ) {
            (self.policy, self.waitBudget, self.outage, self.load) = (policy, waitBudget, outage, load)
            self.capacity = capacity
            let closedForm = policy.closedForm
            (moments, atCapFraction) = (closedForm?.moments, closedForm?.atCapFraction)
            range = policy.totalWaitRange
        }

        var clients: Double { Double(outage?.clients ?? 0) }
    }

    /// The columns of every row.
    static let policyTable: [Column<Row>] =
        [PolicyColumns.jitter { $0.policy }] + PolicyColumns.leading { $0.policy } + [
            Column(
                "mean_total_wait_s",
                "expected total wait E[W], seconds (empty: no closed form, i.e. --max-elapsed with jitter)"
            ) {
                CSVFormat.number($0.moments?.mean)
            },
            Column("sd_total_wait_s", "standard deviation of the total wait, seconds") {
                CSVFormat.number($0.moments?.standardDeviation)
            },
            Column("min_total_wait_s", "smallest possible total wait, seconds") {
                CSVFormat.number($0.range.lowerBound)
            },
            Column("max_total_wait_s", "largest possible total wait, seconds") {
                CSVFormat.number($0.range.upperBound)
            },
            Column("first_capped_retry", "first retry whose wait the cap can limit (empty: the cap never binds)") {
                $0.policy.firstCappedRetry.map(String.init) ?? ""
            },
        ] + PolicyColumns.trailing { $0.policy } + [
            PolicyColumns.capMode { $0.policy },
            Column(
                "at_cap_fraction",
                "expected share of the n - 1 waits that equal the cap (empty: no closed form, or no retry)"
            ) {
                CSVFormat.number($0.atCapFraction)
            },
        ] + PolicyColumns.shape { $0.policy }

    /// The columns `--wait-budget` adds.
    static let budgetTable: [Column<Row>] = [
        Column("wait_budget_s", "with --wait-budget: the budget T, seconds") {
            $0.waitBudget.map(CSVFormat.seconds) ?? ""
        }.parameter(),
        Column(
            "max_attempts_within_budget",
            "with --wait-budget: the most attempts n with E[W(n)] <= T (inf: any n; empty: no closed form)"
        ) { row in
            row.waitBudget.map {
                switch row.policy.maxAttempts(expectedTotalWaitAtMost: $0) {
                case .attempts(let n): String(n)
                case .any: "inf"
                case .unknown: ""
                }
            } ?? ""
        },
    ]

    /// The columns `--outage` adds.
    static let outageTable: [Column<Row>] =
        [
            Column("outage_s", "with --outage: the outage T, seconds") {
                $0.outage.map { CSVFormat.seconds($0.end) } ?? ""
            }.parameter(),
            Column("clients", "with --outage: the clients N of the burst") {
                $0.outage.map { String($0.clients) } ?? ""
            }.parameter(),
            Column("bucket_s", "with --outage: the bucket width, seconds") {
                $0.outage.map { CSVFormat.seconds($0.bucket) } ?? ""
            }.parameter(),
            Column(
                "outage_attempts_per_client",
                "with --outage: expected attempts per client (empty for the decorrelated modes, polly-v2 and exponential)"
            ) {
                CSVFormat.number($0.load?.expectedAttempts)
            },
            Column("outage_mean_total_wait_s", "with --outage: expected total wait per client, seconds") {
                CSVFormat.number($0.load?.expectedTotalWait)
            },
            Column("outage_success_fraction", "with --outage: probability that a client succeeds within its attempts") {
                CSVFormat.number($0.load?.successProbability)
            },
        ]
        + LoadPeakColumns.columns(
            prefix: "outage", attempts: "with --outage: expected attempts in the busiest bucket",
            retries: "with --outage: expected retries in the busiest bucket",
            start: "with --outage: start of that bucket, seconds",
            load: { $0.load }, clients: { $0.clients })

    static var columns: [ColumnDocumentation] {
        (policyTable + budgetTable + outageTable + capacityTable).map(\.documentation)
    }

    static let example = "backoff formula --base 100ms --multiplier 2 --cap 5s --max-attempts 5"

    let policy: PolicyOptions
    let waitBudget: Duration?
    let outage: (end: Duration, clients: Int, bucket: Duration)?
    let outputPath: String?
    /// With `--server capacity`: the server whose chain each row solves.
    let capacity: Capacity?

    /// With `--outage`, the convolution's laws (at most 4,194,304 cells of 8 bytes, four arrays); with
    /// `--wait-budget` or the closed forms nothing that grows with a parameter.
    var memoryEstimate: MemoryEstimate {
        var items: [MemoryEstimate.Item] = []
        if outage != nil {
            items.append(
                .init(
                    parameter: "--outage", what: "the convolution's 4 arrays of up to 4,194,304 cells",
                    bytes: 4 * 4_194_304 * 8))
        }
        if capacity != nil {
            // A state has at most 2 + 2 S transitions, kept twice (as added, 16 bytes each, and by
            // target, 12), with 5 numbers of its own and its level (4 bytes); S is at most 12
            // retry stages.
            let stages = Double(min(12, policy.policies.map { $0.maxAttempts - 1 }.max() ?? 0))
            items.append(
                .init(
                    parameter: "--server capacity",
                    what: "a Markov chain of up to \(MemoryEstimate.count(Double(Self.maximumStates))) states",
                    bytes: Double(Self.maximumStates) * ((2 + 2 * stages) * 28 + 44)))
        }
        return MemoryEstimate(items)
    }

    init(_ options: ParsedOptions) throws(CommandLineError) {
        policy = try PolicyOptions(options, defaultJitter: Self.defaultJitter)
        waitBudget = try options(Self.waitBudget)
        // Every value given is parsed, whether or not it applies.
        let (clients, bucket) = (try options(Self.clients), try options(Self.bucket))
        if let end = try options(Self.outage) {
            outage = (end, clients, bucket)
            unused = []
            // The convolution's cells are at most a bucket wide, and it spans the longest total wait.
            let span = policy.policies.map { $0.totalWaitRange.upperBound * 1e9 }.max() ?? 0
            let buckets = span / bucket.nanoseconds + 1
            if buckets > OutageLoad.cellLimit {
                throw options.invalid(
                    Self.bucket,
                    detail: "the expected load spans \(MemoryEstimate.count(buckets)) buckets of this "
                        + "width (the longest total wait), more than \(MemoryEstimate.count(OutageLoad.cellLimit))")
            }
        } else {
            outage = nil
            unused = [Self.clients.spec, Self.bucket.spec].filter { options.isGiven($0) }
        }
        outputPath = try options(TableOptions.output)
        capacity = try Self.capacity(options)
        if capacity == nil {
            unused += [Self.arrivals.spec, Self.workers.spec, Self.queue.spec, Self.service.spec, Self.timeout.spec]
                .filter { options.isGiven($0) }
        }
    }

    /// The options given that apply only with --outage or --server, which is not.
    private var unused: [OptionSpec]

    /// The columns of this run: the policy's, then the budget's and the outage's when given.
    var table: [Column<Row>] {
        Self.policyTable + (waitBudget == nil ? [] : Self.budgetTable) + (outage == nil ? [] : Self.outageTable)
            + (capacity == nil ? [] : Self.capacityTable)
    }

    var header: [String] { table.header() }

    var warnings: [String] {
        var warnings = policy.warnings
        for spec in unused {
            let needs = Self.capacitySpecs.contains { $0.name == spec.name } ? "--server capacity" : "--outage"
            warnings.append("'--\(spec.name)' applies only with \(needs); it has no effect here")
        }
        if let capacity {
            if capacity.timeout != nil || !capacity.isExponential {
                let why = capacity.timeout != nil ? "a --timeout" : "a service time that is not exp:MEAN"
                warnings.append(
                    "\(why) makes no Markov chain, so the capacity_ columns are empty; the fluid_ columns answer")
            } else {
                for policy in policy.policies where policy.exponentialRetryRates == nil {
                    let reason =
                        policy.jitter == .exponential && policy.maxElapsed == nil && policy.maxAttempts > 13
                        ? "more than 12 retries make too many states for the chain"
                        : "waits that are not exponential (or --max-elapsed) make no Markov chain"
                    warnings.append(
                        "jitter \(policy.jitter.name): \(reason), so its capacity_ columns are empty "
                            + "(the fluid_ columns answer; backoff simulate measures it)")
                }
            }
        }
        return warnings
    }

    func run() throws(CommandLineError) -> CSVTable {
        let table = self.table
        var csv = CSVTable(header: table.header())
        for policy in policy.policies {
            let load = outage.flatMap { outage in
                OutageLoad(
                    policy: policy, outageEnd: VirtualTime(outage.end), bucketWidth: outage.bucket)
            }
            let capacity = try self.capacity?.solved(under: policy)
            if let failure = capacity?.fluidFailure { csv.notes.append(failure + "; its fluid_ cells are empty") }
            csv.append(
                table.row(Row(policy: policy, waitBudget: waitBudget, outage: outage, load: load, capacity: capacity)))
        }
        return csv
    }
}
