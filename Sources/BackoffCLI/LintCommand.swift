import BackoffPolicies
import Foundation
import RetrySimulation

/// `backoff lint`: a retry configuration checked against rules whose case is made in a library's
/// issue, a paper or the SRE book (``LintRule``), and against the limits a CI job sets
/// (`--max-amplification`, `--max-p99-wait`). One row per finding and per assertion; exit 1 when a
/// finding reaches `--fail-on` or an assertion fails, so the command is a CI step:
///
/// ```
/// backoff lint --preset aws-sdk-standard --layer max-attempts=3 --max-amplification 10
/// ```
struct LintCommand: RunnableCommand {
    static let name = "lint"
    static let abstract =
        "Check a retry configuration against rules with cited cases and against a CI job's limits; exit 1 when one fails."
    static let discussion = """
        Takes what the other commands take (options, --preset, --grpc-service-config, --config) and the \
        layers of a stack (--layer, --deadline). Each rule that fires is a row with its severity, its \
        finding in numbers, why it matters and where the case is made; each assertion given is a row that \
        passes or fails. Exit 1 when a finding is at least --fail-on's severity (error by default) or an \
        assertion fails, 0 otherwise; the table is written either way. Rules: \
        \(LintRule.all.map { "\($0.name) (\($0.severity.rawValue))" }.joined(separator: ", ")); \
        multiplied-retries is an error above an amplification of \(Int(LintRule.multipliedRetriesLimit)), a warning \
        below.
        """
    static let failOn = Option<LintRule.Severity?>(
        "fail-on", "severity", default: "error", form: "warning, error or none",
        help: "The least severity of a finding that fails the run (none: only assertions fail it).",
        parse: { text throws(InvalidValue) -> LintRule.Severity? in
            switch text {
            case "none": return nil
            case "warning": return .warning
            case "error": return .error
            default: throw InvalidValue()
            }
        })
    static let maxAmplification = Option<Double?>.optional(
        "max-amplification", "number", kind: .number, form: "a number of at least 1, e.g. 10",
        help: "Fail when a request that fails everywhere makes more attempts at the bottom than this: the product of "
            + "the tiers' attempts (the clients' and each layer's), budgets aside.",
        parse: { text throws(InvalidValue) -> Double in
            guard let value = ValueParser.number(text), value >= 1, value.isFinite else { throw InvalidValue() }
            return value
        })
    static let maxP99Wait = Option<Duration?>.optional(
        "max-p99-wait", "duration", kind: .duration, form: "a duration with a unit, e.g. 5s",
        help: "Fail when the 99th percentile of a failing request's total wait is longer: from 100,000 seeded draws "
            + "(exact without jitter).",
        parse: Parsers.duration)
    static let maxPeakRetryLoad = Option<Int?>.optional(
        "max-peak-retry-load", "count", kind: .count, form: "a whole number of at least 0, e.g. 200",
        help: "Fail when --clients clients failing at once in an --outage send more retries than this in one bucket "
            + "(simulate --server outage:D's peak_retry_load).",
        parse: Parsers.count(in: 0...Int.max))
    static let minSuccessShare = Option<Double?>.optional(
        "min-success-share", "number", kind: .number, form: "a number from 0 to 1, e.g. 0.99",
        help: "Fail when a smaller share of --clients clients failing at once in an --outage succeed in the end "
            + "(simulate --server outage:D's successes / clients).",
        parse: { text throws(InvalidValue) -> Double in
            guard let value = ValueParser.number(text), (0...1).contains(value) else { throw InvalidValue() }
            return value
        })
    static let specs: [OptionSpec] =
        LintSubject.specs + [
            failOn.spec, maxAmplification.spec, maxP99Wait.spec, maxPeakRetryLoad.spec, minSuccessShare.spec,
            ScenarioOptions.clients.spec, OutageScenario.outage.spec,
        ] + RunOptions.seedSpecs + TableOptions.specs

    /// One row: a finding of a rule, or an assertion's verdict.
    struct Row {
        let jitter: Jitter
        let rule: String
        let severity: LintRule.Severity
        /// `finding` for a rule that fired; `pass` or `fail` for an assertion.
        let status: String
        let finding: String
        let why: String
        let citation: String
    }

    static let table: [Column<Row>] = [
        PolicyColumns.jitterMode.column { $0.jitter },
        Column("rule", "the rule or assertion: a rule's name, or the assertion's option without its dashes") {
            $0.rule
        },
        Column("severity", "warning or error: how bad a finding is (an assertion that fails is an error)") {
            $0.severity.rawValue
        },
        Column("status", "finding (a rule fired), pass or fail (an assertion)") { $0.status },
        Column("finding", "what was found, with its numbers") { $0.finding },
        Column("why", "one sentence: why it matters") { $0.why },
        Column("citation", "where the case is made: a paper, a book, a library's code or issue") { $0.citation },
    ]
    static var columns: [ColumnDocumentation] { table.map(\.documentation) }
    static let example = "backoff lint --preset aws-sdk-standard --layer max-attempts=3 --max-amplification 10"

    /// The p99 assertion's draws.
    static let p99Draws = 100_000

    static func main<Output: TextOutputStream, Errors: TextOutputStream>(
        _ tokens: ArraySlice<ArgumentToken>, standardOutput: inout Output, standardError: inout Errors, terminal: Bool
    ) throws(CommandLineError) -> Int32 {
        let options = try ParsedOptions(command: name, specs: specs, tokens: tokens)
        let (subjects, warnings) = try LintSubject.read(options)
        let failOn = try options(Self.failOn)
        let maxAmplification = try options(Self.maxAmplification)
        let maxP99Wait = try options(Self.maxP99Wait)
        let (maxPeakRetryLoad, minSuccessShare) = (
            try options(Self.maxPeakRetryLoad), try options(Self.minSuccessShare)
        )
        let scenario = try OutageScenario(options, command: name)
        let randomness = try RunOptions(options)
        let tableOutput = try TableOutput(options)
        try tableOutput.check(header: Self.table.header(), columns: columns)
        let output = try options(TableOptions.output).map { path throws(CommandLineError) in
            try AtomicFileWriter(path: path)
        }
        for warning in warnings { standardError.write("backoff: warning: \(warning)\n") }

        // The outage, simulated once for every jitter mode, when an assertion asks about it.
        var outageRows: [[String: String]] = []
        if maxPeakRetryLoad != nil || minSuccessShare != nil {
            outageRows = try scenario.rows(OutageScenario.given(options))
        }

        var rows: [Row] = []
        for subject in subjects {
            let candidate = subject.policy
            for (rule, finding) in subject.findings {
                rows.append(
                    Row(
                        jitter: candidate.jitter, rule: rule.name, severity: finding.severity ?? rule.severity,
                        status: "finding", finding: finding.text, why: rule.why, citation: rule.citation))
            }
            if let maxAmplification {
                let product = subject.tiers.map { String($0.attempts) }.joined(separator: " x ")
                let amplification = subject.amplification
                rows.append(
                    assertion(
                        "max-amplification", candidate, passes: amplification <= maxAmplification,
                        finding: "amplification \(CSVFormat.number(amplification)) (\(product)) against at most "
                            + CSVFormat.number(maxAmplification),
                        why: "The attempts a request that fails everywhere makes at the bottom, budgets aside."))
            }
            if let maxP99Wait {
                let p99 = try Self.p99TotalWait(candidate, randomness: randomness)
                rows.append(
                    assertion(
                        "max-p99-wait", candidate, passes: p99 <= Double(maxP99Wait.wholeNanoseconds) / 1e9,
                        finding: "p99 total wait \(CSVFormat.number(p99)) s against at most "
                            + "\(CSVFormat.seconds(maxP99Wait)) s",
                        why: "What a user waits before the error, at the 99th percentile, when every attempt fails."))
            }
            let outage = outageRows.first { $0["jitter"] == candidate.jitter.name } ?? [:]
            let inOutage = "\(scenario.clients) clients in a \(scenario.outage.unitText) outage"
            if let maxPeakRetryLoad, let peak = outage["peak_retry_load"].flatMap(Int.init) {
                rows.append(
                    assertion(
                        "max-peak-retry-load", candidate, passes: peak <= maxPeakRetryLoad,
                        finding: "peak retry load \(peak) in a \(outage["bucket_s"] ?? "") s bucket at t = "
                            + "\(outage["peak_retry_time_s"] ?? "") s (\(inOutage)) against at most \(maxPeakRetryLoad)",
                        why: "The retries a server meets in its worst bucket right after it comes back."))
            }
            if let minSuccessShare, let successes = outage["successes"].flatMap(Double.init) {
                let share = successes / Double(scenario.clients)
                rows.append(
                    assertion(
                        "min-success-share", candidate, passes: share >= minSuccessShare,
                        finding: "\(CSVFormat.number(share)) of the requests succeed (\(Int(successes)) of "
                            + "\(inOutage)) against at least \(CSVFormat.number(minSuccessShare))",
                        why: "The requests that get through the outage in the end, retries included."))
            }
        }
        var table = CSVTable(header: Self.table.header())
        for row in rows { table.append(Self.table.row(row)) }
        let text = try tableOutput.text(of: table, columns: columns)
        try output.deliver(text, orTo: &standardOutput)

        let findings = rows.filter { $0.status == "finding" }
        let failing = findings.filter { finding in failOn.map { finding.severity >= $0 } ?? false }
        let failed = rows.filter { $0.status == "fail" }
        let errors = findings.filter { $0.severity == .error }.count
        let summary =
            "lint: \(findings.count) finding\(findings.count == 1 ? "" : "s") (\(errors) error"
            + "\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s"))"
            + (rows.count > findings.count
                ? ", \(rows.count - findings.count - failed.count) assertion(s) passed, \(failed.count) failed" : "")
        let fails = !failing.isEmpty || !failed.isEmpty
        standardError.write(
            "backoff: \(summary): "
                + (fails
                    ? "failing (\(failing.count) finding(s) at --fail-on \(options.text(Self.failOn) ?? "error") or "
                        + "above, \(failed.count) assertion(s) failed)\n"
                    : "passing\n"))
        return fails ? 1 : 0
    }

    private static func assertion(
        _ name: String, _ policy: BackoffPolicy, passes: Bool, finding: String, why: String
    ) -> Row {
        Row(
            jitter: policy.jitter, rule: name, severity: .error, status: passes ? "pass" : "fail", finding: finding,
            why: why, citation: "--\(name)")
    }

    /// The 99th percentile of `policy`'s total wait over ``p99Draws`` seeded draws, in seconds.
    private static func p99TotalWait(_ policy: BackoffPolicy, randomness: RunOptions) throws(CommandLineError)
        -> Double
    {
        do {
            let summary = try WaitsExperiment(policy: policy, runs: p99Draws).run(
                seed: RandomStream.seed(root: randomness.seed, jitter: policy.jitter), algorithm: randomness.generator)
            return summary.quantile(0.99) ?? summary.maximum
        } catch {
            throw .failure("\(error)")
        }
    }
}
