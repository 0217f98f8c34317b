import BackoffPolicies
import Foundation
import RetrySimulation
import Stochastics

extension CheckCommand {
    /// What produced each side, from the columns `--provenance` writes, when either table has them:
    /// `provenance: table backoff 0.2.0+…, GSL 2.7.1; baseline backoff 0.1.0+…, GSL 2.7.1`.
    static func provenance(of table: CSVReader, and baseline: CSVReader) -> String? {
        let columns = TableOutput.provenanceColumns.map(\.name)
        func describe(_ file: CSVReader) -> String {
            let values = columns.map { column in
                file.column(column).map { position in
                    Array(Set(file.records.map { $0[position] })).sorted().joined(separator: " and ")
                } ?? "unrecorded"
            }
            return "backoff \(values[0]), GSL \(values[1])"
        }
        guard columns.contains(where: { table.column($0) != nil || baseline.column($0) != nil }) else { return nil }
        return "provenance: table \(describe(table)); baseline \(describe(baseline))"
    }

    /// Compares every row of `table` with its match in `baseline` (by parameters), each mean with a
    /// standard error by z, every other measured column by `--rel` when given.
    func compare(_ table: CSVReader, with baseline: CSVReader, report: inout CheckReport)
        throws(CommandLineError)
    {
        // Rows match by their parameters, not by seed or point_id: a baseline from another seed
        // (or another release) measures the same points.
        let keys = table.header.filter {
            (Self.parameterColumns.contains($0) || $0.hasPrefix("sweep_"))
                && !["seed", "point_id", "sweep_seed"].contains($0)
                && baseline.column($0) != nil
        }
        guard !keys.isEmpty else {
            throw .usage(
                "'\(path)' and '\(baselinePath!)' share no parameter column to match rows by (e.g. jitter, point_id)",
                command: Self.name)
        }
        func key(_ record: [String], _ file: CSVReader) -> String {
            keys.map { record[file.column($0)!] }.joined(separator: "\u{1F}")
        }
        var old: [String: [String]] = [:]
        for record in baseline.records { old[key(record, baseline)] = record }
        var matched = Set<String>()

        let measured = table.header.filter {
            !Self.parameterColumns.contains($0) && !$0.hasPrefix("sweep_") && !$0.hasPrefix("se_")
                && !$0.hasPrefix("formula_")
                && $0 != "z_score" && baseline.column($0) != nil
        }
        for (row, record) in table.records.enumerated() {
            report.rows += 1
            let rowKey = key(record, table)
            guard let previous = old[rowKey] else {
                report.unmatched.append("\(label(row, record, table)) has no match in the baseline")
                continue
            }
            matched.insert(rowKey)
            for column in measured {
                guard let new = Double(record[table.column(column)!]),
                    let was = Double(previous[baseline.column(column)!])
                else {
                    continue  // text or empty fields (e.g. a formula with no closed form) are not measurements
                }
                let errorColumn = Self.comparisons.first {
                    $0.measured == column && !$0.mean.holdsOnlyWithoutQueueing
                }?.standardError
                if let errorColumn, let newError = table.column(errorColumn).flatMap({ Double(record[$0]) }),
                    let oldError = baseline.column(errorColumn).flatMap({ Double(previous[$0]) })
                {
                    guard newError >= 0 || newError.isNaN, oldError >= 0 || oldError.isNaN else {
                        report.unreadable.append(
                            "\(label(row, record, table)): \(errorColumn) is below 0 in one of the tables")
                        continue
                    }
                    let combined = (newError * newError + oldError * oldError).squareRoot()
                    report.add(
                        MeanCheck(
                            observed: new, expected: was, standardError: combined, limit: limit,
                            exactTolerance: tolerance(was)),
                        column: column, row: label(row, record, table), against: "baseline")
                } else if let relative {
                    report.compared += 1
                    if abs(new - was) > relative * abs(was) {
                        report.failures.append(
                            "FAIL \(label(row, record, table)): \(column) \(new) vs baseline \(was): relative difference "
                                + "\(abs(new - was) / abs(was)) > \(relative)")
                    }
                } else {
                    report.withoutStandardError.insert(column)
                }
            }
        }
        for (rowKey, _) in old where !matched.contains(rowKey) {
            report.unmatched.append(
                "baseline row (\(rowKey.split(separator: "\u{1F}").joined(separator: ", "))) has no match in '\(path)'")
        }
    }
}
