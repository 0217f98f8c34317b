import BackoffPolicies
import RetrySimulation

extension CheckCommand {
    /// The answers of a `formula --server capacity` table that `check` recomputes, with the
    /// relative tolerance each holds to (`fluid_state`, a word, 0: word for word). The chain's answers agree across truncations within the
    /// probability on their boundary (under 1e-9), which moves a mean by about as much relative to
    /// it: 1e-7 leaves a hundredfold margin. The fluid's goodputs come from its integration at a
    /// relative tolerance of 1e-6 a step, and its tipping backlog from a bisection stopped at 1e-4
    /// of it: each is held to ten times that. The chain's states and boundary mass describe the
    /// truncation, not the answer, and are not compared.
    static let capacityTolerances: [(column: String, relative: Double)] =
        FormulaCommand.capacityTable.map(\.name).compactMap { name in
            if ["capacity_states", "capacity_boundary_mass"].contains(name) { return nil }
            if name.hasPrefix("capacity_") { return (name, 1e-7) }
            if name == "fluid_tipping_backlog" { return (name, 1e-3) }
            if name == "fluid_state" { return (name, 0) }
            if name.hasPrefix("fluid_") { return (name, 1e-5) }
            return nil
        }

    /// Whether `table` is a `formula --server capacity` table: answers, no simulated means.
    static func holdsCapacityAnswers(_ table: CSVReader) -> Bool { table.column("capacity_states") != nil }

    /// Recomputes every row's capacity server (its chain and its fluid) from its `arrivals`,
    /// `workers`, `queue`, `service`, `timeout_s` and policy columns, and compares each answer
    /// column with it (``capacityTolerances``, relative to the larger of the value and 1). A row
    /// whose columns describe no server or policy fails, naming the column.
    func checkCapacityAnswers(_ table: CSVReader, report: inout CheckReport) {
        let compared = Self.capacityTolerances.filter { table.column($0.column) != nil }
        for (row, record) in table.records.enumerated() {
            report.rows += 1
            let recomputed: FormulaCommand.Row
            do {
                recomputed = try Self.capacityRow(record, in: table)
            } catch {
                report.failures.append("FAIL \(label(row, record, table)): \(error.description)")
                continue
            }
            for (column, relative) in compared {
                let written = record[table.column(column)!]
                let value = FormulaCommand.capacityTable.first { $0.name == column }!.value(recomputed)
                report.compared += 1
                report.recomputed += 1
                if written == value { continue }
                if let a = Double(written), let b = Double(value), abs(a - b) <= relative * max(1, abs(b)) { continue }
                let recomputedText =
                    value.isEmpty
                    ? "has none there (the cell should be empty)"
                    : "gives '\(value)'"
                        + (relative > 0 && !written.isEmpty
                            ? " (tolerance \(CSVFormat.number(relative)) relative)" : "")
                report.failures.append(
                    "FAIL \(label(row, record, table)): \(column) is '\(written)', but the capacity server recomputed "
                        + "from the row's columns \(recomputedText)")
            }
        }
    }

    /// The row of `formula --server capacity` that `record`'s parameter columns ask for, answered
    /// again.
    private static func capacityRow(_ record: [String], in table: CSVReader) throws(CheckFailure)
        -> FormulaCommand.Row
    {
        func cell(_ name: String) throws(CheckFailure) -> String {
            guard let column = table.column(name) else { throw CheckFailure("the table has no \(name) column") }
            return record[column]
        }
        func read<Value>(_ column: TypedColumn<Value>) throws(CheckFailure) -> Value? {
            do throws(RowPolicy.Problem) {
                return try column.read(record, in: table)
            } catch {
                throw CheckFailure(error.description)
            }
        }
        let policy: BackoffPolicy?
        do throws(RowPolicy.Problem) {
            policy = try RowPolicy.policy(record, in: table)
        } catch {
            throw CheckFailure(error.description)
        }
        guard let policy else { throw CheckFailure("its policy columns cannot be read again (a linear schedule's)") }
        guard case .poisson(let rate, _)? = try read(ScenarioColumns.arrivals) else {
            throw CheckFailure("column arrivals holds '\(try cell("arrivals"))', which is not poisson:RATE")
        }
        guard let workers = Int(try cell("workers")), workers >= 1 else {
            throw CheckFailure(
                "column workers holds '\(try cell("workers"))', which is not a whole number of at least 1")
        }
        guard let queue = Int(try cell("queue")), queue >= 0 else {
            throw CheckFailure("column queue holds '\(try cell("queue"))', which is not a whole number of at least 0")
        }
        guard let service = try read(ScenarioColumns.service) ?? nil, service.mean > .zero else {
            throw CheckFailure("column service holds '\(try cell("service"))', which is not a service time above 0")
        }
        let capacity = FormulaCommand.Capacity(
            arrivalRate: rate, workers: workers, queueLimit: queue, service: service,
            timeout: try read(ScenarioColumns.timeout) ?? nil)
        do throws(CommandLineError) {
            return FormulaCommand.Row(
                policy: policy, waitBudget: nil, outage: nil, load: nil, capacity: try capacity.solved(under: policy))
        } catch {
            throw CheckFailure("its capacity server cannot be answered again: \(error)")
        }
    }

    /// Why a row could not be recomputed.
    struct CheckFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
