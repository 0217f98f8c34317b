import BackoffPolicies
import RetrySimulation

extension CheckCommand {
    /// The relative tolerance each fluid cell of a `simulate` table holds to (0: word for word).
    /// The goodput and the attempts come from an integration at a relative tolerance of 1e-6 a
    /// step, held to ten times that as the capacity table's are; the recovery time is a bucket's
    /// start, found on that integration, held alike.
    static let fluidTolerances: [String: Double] = [
        "fluid_goodput": 1e-5, "fluid_attempts_per_client": 1e-5, "fluid_recovery_time_s": 1e-5,
    ]

    /// Recomputes the fluid cells of every `simulate` row that has some, from its scenario columns
    /// (the capacity server's shape among them, ``ScenarioColumns/workers`` and the rest), and
    /// compares each written cell with it; an empty cell is not compared, since options that no
    /// column records (limits, patience, a queue discipline) only ever switch the fluid off. A
    /// table written before the shape's columns has its fluid cells skipped, and so has a row whose
    /// capacity followed `--capacity-trace`, whose steps no cell holds.
    func checkFluidAnswers(_ table: CSVReader, report: inout CheckReport) {
        let cells = SimulateCommand.fluidCells.filter { table.column($0.name) != nil }
        guard !cells.isEmpty else { return }
        for (row, record) in table.records.enumerated() {
            let written = cells.map { record[table.column($0.name)!] }
            let present = written.filter { !$0.isEmpty }.count
            guard present > 0 else { continue }
            guard table.column(ScenarioColumns.workers.name) != nil, !Self.followsCapacityTrace(record, in: table)
            else {
                report.withoutFormula += present
                continue
            }
            let prediction: FluidPrediction?
            do throws(RowPolicy.Problem) {
                prediction = try Self.fluidPrediction(record, in: table)
            } catch {
                report.failures.append("FAIL \(label(row, record, table)): \(error.description)")
                continue
            }
            for (cell, text) in zip(cells, written) where !text.isEmpty {
                let value = cell.value(prediction)
                report.compared += 1
                report.recomputed += 1
                let relative = Self.fluidTolerances[cell.name] ?? 0
                if text == value { continue }
                if let a = Double(text), let b = Double(value), abs(a - b) <= relative * max(1, abs(b)) { continue }
                let recomputed =
                    value.isEmpty
                    ? "has none there (the cell should be empty)"
                    : "gives '\(value)'" + (relative > 0 ? " (tolerance \(CSVFormat.number(relative)) relative)" : "")
                report.failures.append(
                    "FAIL \(label(row, record, table)): \(cell.name) is '\(text)', but the fluid model recomputed from "
                        + "the row's columns \(recomputed)")
            }
        }
    }

    /// Whether the row's capacity followed a trace file (an unreadable cell reads as not).
    private static func followsCapacityTrace(_ record: [String], in table: CSVReader) -> Bool {
        (try? ScenarioColumns.capacityTrace.read(record, in: table)) == .some(.some(.some(true)))
    }

    /// The fluid's prediction for the row's scenario, `nil` where its equations do not cover it or
    /// its integration fails (the row's cells are then empty, as `simulate` leaves them).
    /// - Throws: a ``RowPolicy/Problem`` naming the column that describes no valid policy or scenario.
    private static func fluidPrediction(_ record: [String], in table: CSVReader) throws(RowPolicy.Problem)
        -> FluidPrediction?
    {
        guard let policy = try RowPolicy.policy(record, in: table),
            let scenario = try scenario(record, in: table, policy: policy, shaped: true)
        else { return nil }
        return (try? scenario.fluidPrediction()) ?? nil
    }
}
