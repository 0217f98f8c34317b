import BackoffPolicies
import Foundation
import RetrySimulation
import Stochastics

/// `backoff check FILE [--baseline OLD]`: a regression check of simulated means, against their
/// formulas or against an earlier table, at z standard errors.
struct CheckCommand: RunnableCommand {
    static let name = "check"
    static let abstract = "Check a table's simulated means against their formula columns, or against a baseline table."
    static let discussion = """
        Without --baseline, every row's closed forms are recomputed from its policy columns (jitter, base_s, \
        multiplier, cap_s, max_attempts, schedule, decorrelated_factor, max_elapsed_s, cap_mode; for simulate \
        rows also server, clients, bucket_s and, where present, arrivals, service, replicas, hedge and \
        layer_attempts): a formula column that disagrees with the recomputed value fails, \
        and so does a row whose policy columns describe no valid policy, naming the column. Each simulated mean is \
        then compared with the recomputed formula: z = (mean - formula) / standard error, failing when \
        |z| > --z (a hedge's copies, response and work only where no copy waited: peak_queue and rejected 0; rows without a closed form are skipped and counted; rows whose columns cannot be recomputed, \
        a linear schedule's, are compared with their formula column; so are a simulate --hosts-report's shares, \
        each against its formula_share). A simulate row's fluid_ cells are \
        recomputed from its scenario columns (workers, queue, duration_s, drop_expired, degrade_* among them; \
        goodput, attempts and recovery time to 1e-5 relative, the words word for word; an empty cell is not compared, \
        and a row whose capacity followed --capacity-trace is skipped). A formula --server capacity table has no \
        means: its capacity_ and fluid_ answers are recomputed from its arrivals, workers, queue, service, \
        timeout_s and policy columns (the chain's to 1e-7 relative, the fluid's goodputs to 1e-5 and tipping \
        backlog to 1e-3, fluid_state word for word). With --baseline OLD.csv, rows are matched by their parameters (point_id when both \
        tables have it) and each mean with a standard error is compared: z = (new - old) / √(se_new² + se_old²); \
        --rel R also compares every other measured column: |new - old| <= R |old|. Columns are found by \
        name, so extra or reordered columns do not matter. Prints one line per failure and a summary; \
        exits 1 on any failure or unmatched row, and on a table in which nothing could be compared \
        ("nothing to check"; --allow-empty accepts it), 0 otherwise.
        """
    static let baseline = Option<String?>.optional(
        "baseline", "file", form: "a CSV file written by backoff",
        help: "Compare with this earlier table instead of the formulas.",
        parse: Parsers.text)
    static let z = Option(
        "z", "number", kind: .number, default: "4", form: "a number > 0, e.g. 4", help: "Largest |z| that passes.",
        parse: Parsers.form(ValueParser.number, where: { $0 > 0 }))
    static let rel = Option<Double?>.optional(
        "rel", "number", kind: .number, form: "a number >= 0, e.g. 0.01",
        help: "With --baseline: relative tolerance for columns without a standard error.",
        parse: Parsers.form(ValueParser.number, where: { $0 >= 0 }))
    static let allowEmpty = Option<Bool>.flag(
        "allow-empty",
        help:
            "Exit 0 when nothing could be compared (no column with a formula or baseline and a standard error); "
            + "without it such a check fails, since it proves nothing.")
    static let specs = [baseline.spec, z.spec, rel.spec, allowEmpty.spec]
    static let columns = [
        ColumnDocumentation(name: "(report)", meaning: "not CSV: one line per failing comparison, then a summary line")
    ]
    static let example = "backoff check sweep.csv && backoff check sweep.csv --baseline last-release.csv --rel 0.05"

    /// The simulated means, with their formula and standard error columns (see ``ClosedFormMean``).
    static let comparisons: [(mean: ClosedFormMean, measured: String, formula: String, standardError: String)] =
        ClosedFormMean.allCases.map { ($0, $0.column, $0.formulaColumn, $0.standardErrorColumn) }

    /// Columns that describe a row's parameters rather than measure something, as every table
    /// command declares them, and a sweep's `point_id`.
    static let parameterColumns = Set(
        Commands.tables.flatMap { $0.columns.filter(\.describesParameter).map(\.name) } + ["point_id"])

    let path: String
    let baselinePath: String?
    let limit: Double
    let relative: Double?
    /// `--allow-empty`: a table in which nothing could be compared passes.
    let allowsEmpty: Bool

    static func main<Output: TextOutputStream, Errors: TextOutputStream>(
        _ tokens: ArraySlice<ArgumentToken>, standardOutput: inout Output, standardError: inout Errors, terminal: Bool
    ) throws(CommandLineError) -> Int32 {
        try CheckCommand(tokens: tokens).run(standardOutput: &standardOutput)
    }

    /// `backoff check FILE [options]`: the table comes first.
    init(tokens: some Collection<ArgumentToken>) throws(CommandLineError) {
        guard let first = tokens.first, case .word(let path) = first.kind else {
            if tokens.contains(where: { $0.kind == .option(name: "help", attachedValue: nil) }) {
                throw .help(HelpRenderer.help(for: Self.name))
            }
            throw .usage(
                "Missing the table to check: expected 'backoff check FILE [--baseline OLD.csv]'", command: Self.name)
        }
        let options = try ParsedOptions(command: Self.name, specs: Self.specs, tokens: tokens.dropFirst())
        self.path = path
        baselinePath = try options(Self.baseline)
        limit = try options(Self.z)
        relative = try options(Self.rel)
        allowsEmpty = try options(Self.allowEmpty)
    }

    private static func read(_ path: String) throws(CommandLineError) -> CSVReader {
        let table = try CSVReader(file: path, command: name, expected: "a CSV table written by backoff")
        guard !table.header.isEmpty else {
            throw .usage("'\(path)' is empty: expected a CSV table with a header", command: name)
        }
        return table
    }

    /// Runs the check, printing the report. - Returns: 0 when everything passed, 1 otherwise.
    func run(standardOutput: inout some TextOutputStream) throws(CommandLineError) -> Int32 {
        let table = try Self.read(path)
        var report = CheckReport(allowsEmpty: allowsEmpty)
        if let baselinePath {
            let baseline = try Self.read(baselinePath)
            if let line = Self.provenance(of: table, and: baseline) { standardOutput.write(line + "\n") }
            try compare(table, with: baseline, report: &report)
        } else {
            try checkFormulas(table, report: &report)
        }
        for line in report.failures { standardOutput.write(line + "\n") }
        standardOutput.write(report.summary(limit: limit) + "\n")
        return report.passed ? 0 : 1
    }

    private func checkFormulas(_ table: CSVReader, report: inout CheckReport) throws(CommandLineError) {
        let present = Self.comparisons.filter {
            table.column($0.measured) != nil && table.column($0.formula) != nil && table.column($0.standardError) != nil
        }
        if present.isEmpty && Self.holdsCapacityAnswers(table) {
            checkCapacityAnswers(table, report: &report)
            return
        }
        guard !present.isEmpty else {
            let needed = Self.comparisons.map { "\($0.measured), \($0.formula) and \($0.standardError)" }
            throw .usage(
                "'\(path)' has no mean with its formula and standard error: expected the columns \(needed.joined(separator: "; or "))",
                command: Self.name)
        }
        for (row, record) in table.records.enumerated() {
            report.rows += 1
            let recomputed: ClosedForms?
            do {
                recomputed = try Self.recompute(record, in: table)
            } catch {
                report.failures.append("FAIL \(label(row, record, table)): \(error.description)")
                continue
            }
            if recomputed == nil { report.notRecomputed += 1 }
            for comparison in present {
                let formulaText = record[table.column(comparison.formula)!]
                var formula = formulaText.isEmpty ? nil : Double(formulaText)
                if !formulaText.isEmpty && formula == nil {
                    report.unreadable.append("row \(row + 1): \(comparison.formula) is not a number")
                    continue
                }
                if let recomputed, let value = recomputed[comparison.mean] {
                    // A simulate row with an empty formula may come from a scenario that has none and
                    // whose options no column records (a shared budget, arrivals, sessions): there is
                    // nothing to compare, and the columns cannot say it should have one.
                    if formula == nil && value != nil && table.column("server") != nil {
                        report.withoutFormula += 1
                        continue
                    }
                    report.recomputed += 1
                    switch (formula, value) {
                    case (nil, nil):
                        break
                    case (let written?, nil):
                        report.failures.append(
                            "FAIL \(label(row, record, table)): \(comparison.formula) is \(CSVFormat.number(written)), but the row's "
                                + "policy has no closed form there (the column should be empty)")
                        continue
                    case (nil, let value?):
                        report.failures.append(
                            "FAIL \(label(row, record, table)): \(comparison.formula) is empty, but the closed form recomputed "
                                + "from the row's policy columns is \(CSVFormat.number(value))")
                    case (let written?, let value?):
                        if abs(written - value) > tolerance(value) {
                            report.failures.append(
                                "FAIL \(label(row, record, table)): \(comparison.formula) \(CSVFormat.number(written)) disagrees with "
                                    + "the closed form recomputed from the row's policy columns, \(CSVFormat.number(value))"
                            )
                        }
                    }
                    formula = value
                }
                guard let expected = formula,
                    !comparison.mean.holdsOnlyWithoutQueueing || Self.noCopyWaited(record, table)
                else {
                    report.withoutFormula += 1
                    continue
                }
                guard let observed = Double(record[table.column(comparison.measured)!]),
                    let error = Double(record[table.column(comparison.standardError)!])
                else {
                    report.unreadable.append("row \(row + 1): \(comparison.measured) is not a number")
                    continue
                }
                guard !(error < 0) else {  // a NaN error (no spread measured) is MeanCheck's to judge
                    report.unreadable.append(
                        "row \(row + 1): \(comparison.standardError) is \(CSVFormat.number(error)), a standard error below 0"
                    )
                    continue
                }
                report.add(
                    MeanCheck(
                        observed: observed, expected: expected,
                        standardError: Self.standardError(
                            error, of: comparison.mean, expected: expected, record, table),
                        limit: limit, exactTolerance: tolerance(expected)),
                    column: comparison.measured, row: label(row, record, table), against: "formula")
            }
        }
        checkFluidAnswers(table, report: &report)
    }

    /// True when the row's copies all started at once: no queue formed (`peak_queue` 0) and none was
    /// turned away (`rejected` 0), where the hedge's closed forms hold.
    static func noCopyWaited(_ record: [String], _ table: CSVReader) -> Bool {
        ["peak_queue", "rejected"].allSatisfy { name in table.column(name).map { record[$0] == "0" } ?? false }
    }

    /// The standard error to judge a mean by. For successes, a binomial count, it is at least the
    /// count's standard error under the formula, √(n p (1 - p)) with p = formula / n and n the row's
    /// clients (the closed forms hold for one request per client): a run in which every request
    /// succeeded has no spread of its own (se 0), though the formula allows a few failures.
    static func standardError(
        _ measured: Double, of mean: ClosedFormMean, expected: Double, _ record: [String], _ table: CSVReader
    ) -> Double {
        guard mean == .successes, let column = table.column("clients"), let n = Double(record[column]), n >= 1 else {
            return measured
        }
        let p = min(1, max(0, expected / n))
        return max(measured, (n * p * (1 - p)).squareRoot())
    }

    /// Deterministic values agree when within a nanosecond-scale rounding of each other.
    func tolerance(_ expected: Double) -> Double { 1e-9 * max(1, abs(expected)) }

    /// `row 3 (sweep_multiplier=2, jitter=full)`: the row and its parameters, for messages.
    func label(_ row: Int, _ record: [String], _ table: CSVReader) -> String {
        let swept = table.header.filter { $0.hasPrefix("sweep_") }
        let names =
            swept.isEmpty ? ["jitter", "clients", "server", "base_s", "multiplier", "cap_s", "max_attempts"] : swept
        let parts = names.compactMap { name in table.column(name).map { "\(name)=\(record[$0])" } }
        return "row \(row + 1) (\(parts.joined(separator: ", ")))"
    }
}
