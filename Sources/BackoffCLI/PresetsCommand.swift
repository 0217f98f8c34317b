import BackoffPolicies

/// `backoff presets`: the policies libraries ship, one row each, with their closed forms.
struct PresetsCommand: BackoffCommand {
    static let name = "presets"
    static let abstract =
        "List the retry policies libraries ship (for --preset): parameters, cap rule, limits, budget and source."
    static let discussion = """
        Each preset is the policy and limits that reproduce a library's default behaviour, from the \
        library's source (column source); verified says whether scripts/conformance compared it with the \
        library's own code (library-code VERSION) or it was only read (source-read), and notes says where the \
        model departs from the library. A library that backs off differently after a throttling error has a \
        row per failure kind (--failure-kind). Any command takes --preset NAME, and options given beside it \
        override the preset's.
        """
    static let specs = TableOptions.specs
    /// What one row is written from: a preset and the policy it makes.
    struct Row {
        let preset: Preset
        let kind: FailureKind
        let policy: BackoffPolicy
        let closedForm: PolicyClosedForm?
        let firstWindow: ClosedRange<Double>
    }

    /// The table's columns, in order; new columns go at the end.
    static let table: [Column<Row>] =
        identity + PolicyColumns.leading { $0.policy } + limits + closedForms + PolicyColumns.shape { $0.policy }
        + evidence

    private static let identity: [Column<Row>] = [
        Column("preset", "preset name, for --preset") { $0.preset.name }.holdingText(),
        Column("library", "the library and setting it reproduces") { $0.preset.library }.holdingText(),
        PolicyColumns.jitter { $0.policy },
        PolicyColumns.capMode { $0.policy },
    ]

    private static let limits: [Column<Row>] = [
        PolicyColumns.maxElapsed.column { $0.policy.maxElapsed },
        PolicyColumns.schedule.column { $0.policy.schedule.name },
        PolicyColumns.decorrelatedFactor.column { $0.policy.jitter.decorrelatedFactor },
        Column("budget", "the shared retry budget it brings to simulate (none: no budget)") {
            BudgetSpec.print($0.preset.budget)
        }.holdingText(),
        Column("retry_after", "its handling of a server's Retry-After in simulate") {
            $0.preset.retryAfterHandling.rawValue
        }.holdingText(),
    ]

    private static let closedForms: [Column<Row>] = [
        Column("first_wait_low_s", "lower end of the first wait's window, seconds") {
            CSVFormat.number($0.firstWindow.lowerBound / 1e9)
        },
        Column("first_wait_high_s", "upper end of the first wait's window, seconds") {
            CSVFormat.number($0.firstWindow.upperBound / 1e9)
        },
        Column("mean_total_wait_s", "closed-form E[W] when every attempt fails, seconds (empty: no closed form)") {
            CSVFormat.number($0.closedForm?.moments.mean)
        },
        Column("sd_total_wait_s", "closed-form standard deviation of W, seconds") {
            CSVFormat.number($0.closedForm?.moments.standardDeviation)
        },
        Column("at_cap_fraction", "closed-form expected share of waits at the cap") {
            CSVFormat.number($0.closedForm?.atCapFraction)
        },
        Column("source", "the file or spec read, with its version") { $0.preset.source }.holdingText(),
        Column("notes", "where the library and the model part") { $0.preset.notes }.holdingText(),
    ]

    private static let evidence: [Column<Row>] = [
        Column(
            "verified",
            "library-code VERSION: compared with the library's own code, run at VERSION, by scripts/conformance; "
                + "source-read: written from its source, not run"
        ) { $0.preset.evidence.text }.holdingText(),
        Column("failure_kind", "the kind of failure the row's policy answers (a preset may treat each apart)") {
            $0.kind.rawValue
        }.holdingText(),
        Column("rate_limiter", "the client-side rate limiter the preset brings to simulate, as --throttle takes it") {
            ThrottleSpec.print($0.preset.adaptiveRateLimiter.map { .awsAdaptive($0) })
        }.holdingText(),
        Column("hedge", "the hedge the preset brings to simulate (capacity), as --hedge takes it") {
            HedgeSpec.print($0.preset.hedging)
        }.holdingText(),
    ]

    static var columns: [ColumnDocumentation] { table.map(\.documentation) }

    static let example = "backoff presets --output presets.csv"

    let outputPath: String?

    init(_ options: ParsedOptions) throws(CommandLineError) {
        outputPath = try options(TableOptions.output)
    }

    func run() throws(CommandLineError) -> CSVTable {
        var table = CSVTable(header: Self.table.header())
        for preset in Preset.all {
            for kind in preset.failureKinds {
                let policy = preset.policy(for: kind)
                table.append(
                    Self.table.row(
                        Row(
                            preset: preset, kind: kind, policy: policy, closedForm: policy.closedForm,
                            firstWindow: policy.waitWindowNanoseconds(after: BackoffState(policy: policy)))))
            }
        }
        return table
    }
}
