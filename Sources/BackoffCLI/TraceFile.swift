import EventSimulation
import Foundation
import RetrySimulation

/// Incident traces: CSV step functions over time, one row per step, each problem named by its row
/// and column. Times (`time_s`) must start at 0 and not decrease, and every cell is a number.
///
/// - `--server trace:FILE` reads `failure_probability` (in [0, 1]: from each time on, every attempt
///   fails with that probability; the last holds) and optionally `retry_after_s` (the delay a
///   failure carries; empty for none).
/// - `--capacity-trace FILE` reads `capacity_factor` (greater than 0: a service that starts while a
///   step holds takes its time divided by the factor) for `--server capacity`.
///
/// The capacity reader reads only its column; the failure reader refuses a file with a
/// `capacity_factor` column, so a capacity incident is not replayed as failures by mistake.
enum TraceFile {
    /// The largest trace read: 64 MiB.
    static let limit = 64 << 20

    /// `--server trace:FILE`: a failure rate over time.
    static func trace(path: String) throws(InvalidValue) -> FailureTrace {
        try trace(text: try load(path), name: path)
    }

    /// `--capacity-trace FILE`: the capacity server's capacity over time, as factors of its full capacity.
    static func capacityProfile(path: String) throws(InvalidValue) -> StepFunction<Double> {
        try capacityProfile(text: try load(path))
    }

    /// A failure trace from its CSV text; `name` is its file's.
    static func trace(text: String, name: String) throws(InvalidValue) -> FailureTrace {
        let table = try table(text, columns: ["failure_probability"], optional: "retry_after_s")
        guard table.column("capacity_factor") == nil else {
            throw InvalidValue(
                "the trace has a capacity_factor column, which drives the capacity server: "
                    + "give the file to --server capacity --capacity-trace \(name)")
        }
        let (probabilityColumn, retryColumn) = (table.column("failure_probability")!, table.column("retry_after_s"))
        let steps = try steps(of: table) { row throws(InvalidValue) in
            let p = try row.number(probabilityColumn)
            guard (0...1).contains(p) else { throw row.invalid(probabilityColumn, "is not a probability in [0, 1]") }
            var retryAfter: Duration? = nil
            if let retryColumn, !row.text(retryColumn).isEmpty {
                let delay = try row.number(retryColumn)
                guard let nanoseconds = Self.nanoseconds(delay) else {
                    throw row.invalid(
                        retryColumn, "is not a delay from 0 to \(Self.longestSeconds) s (virtual time's horizon)")
                }
                retryAfter = .nanoseconds(nanoseconds)
            }
            return FailureTrace.Level(failureProbability: p, retryAfter: retryAfter)
        }
        do {
            return try FailureTrace(steps: steps, name: name)
        } catch {
            throw InvalidValue("\(error)")
        }
    }

    /// A capacity profile from its CSV text.
    static func capacityProfile(text: String) throws(InvalidValue) -> StepFunction<Double> {
        let table = try table(text, columns: ["capacity_factor"], optional: nil)
        let factorColumn = table.column("capacity_factor")!
        let steps = try steps(of: table) { row throws(InvalidValue) in
            let factor = try row.number(factorColumn)
            guard factor > 0, factor <= 1e6 else {
                throw row.invalid(factorColumn, "is not a capacity factor in (0, 1e6]")
            }
            return factor
        }
        do {
            return try StepFunction(steps: steps)
        } catch {
            throw InvalidValue("\(error)")
        }
    }

    /// The text of the file at `path` (a `what` file, as messages name it).
    static func load(_ path: String, what: String = "trace file") throws(InvalidValue) -> String {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: limit)
        } catch {
            switch error {
            case .unreadable: throw InvalidValue("the \(what) '\(path)' cannot be read")
            case .tooLarge: throw InvalidValue("the \(what) '\(path)' is larger than 64 MiB")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InvalidValue("the \(what) '\(path)' is not UTF-8 text")
        }
        return text
    }

    /// `text` as a table with `time_s` and `columns` (`optional` may be there too).
    private static func table(_ text: String, columns: [String], optional: String?) throws(InvalidValue) -> CSVReader {
        let expected =
            "expected the columns " + (["time_s"] + columns).joined(separator: ",")
            + (optional.map { " (and optionally \($0))" } ?? "")
        let table = CSVReader(text: text)
        guard !table.header.isEmpty, !table.records.isEmpty else {
            throw InvalidValue("the trace has no rows: \(expected)")
        }
        for column in ["time_s"] + columns where table.column(column) == nil {
            throw InvalidValue("the trace lacks the column \(column): \(expected)")
        }
        if let problem = table.malformedDescription { throw InvalidValue("the trace: \(problem)") }
        return table
    }

    /// One step per record, its start from `time_s` (from 0, never decreasing) and its value from `value`.
    private static func steps<Value>(
        of table: CSVReader, value: (Row) throws(InvalidValue) -> Value
    ) throws(InvalidValue) -> [StepFunction<Value>.Step] {
        let timeColumn = table.column("time_s")!
        var steps: [StepFunction<Value>.Step] = []
        for (index, record) in table.records.enumerated() {
            let row = Row(number: index + 2, record: record, header: table.header)  // the header is row 1
            let seconds = try row.number(timeColumn)
            guard let nanoseconds = Self.nanoseconds(seconds) else {
                throw row.invalid(
                    timeColumn, "is not a time from 0 to \(Self.longestSeconds) s (virtual time's horizon)")
            }
            if index == 0 && seconds != 0 {
                throw InvalidValue(
                    "row \(row.number), column time_s: the trace must start at 0, not \(row.text(timeColumn).quotedInMessage)"
                )
            }
            let start = VirtualTime(nanoseconds: nanoseconds)
            if let previous = steps.last, start < previous.start {
                throw row.invalid(timeColumn, "is before the previous row's time")
            }
            steps.append(StepFunction.Step(start: start, value: try value(row)))
        }
        return steps
    }

    /// The longest time or delay in a trace, in whole seconds: virtual time's horizon, 2^62 ns.
    static let longestSeconds = VirtualTime.horizon.nanoseconds / 1_000_000_000

    /// `seconds` in whole nanoseconds, rounded; `nil` below 0 or beyond ``longestSeconds``.
    private static func nanoseconds(_ seconds: Double) -> Int64? {
        guard seconds >= 0, seconds <= Double(longestSeconds) else { return nil }
        return Int64((seconds * 1e9).rounded())
    }

    /// One record of a trace, with the words to name its problems.
    struct Row {
        /// The row's line number in the file, the header's being 1.
        let number: Int
        let record: [String]
        let header: [String]

        func text(_ column: Int) -> String { record[column] }

        func number(_ column: Int) throws(InvalidValue) -> Double {
            guard let value = ValueParser.number(record[column]), value.isFinite else {
                throw invalid(column, "is not a number", quoted: true)
            }
            return value
        }

        func invalid(_ column: Int, _ problem: String, quoted: Bool = false) -> InvalidValue {
            let text = record[column].quotedInMessage
            let value = quoted ? "'\(text)'" : text
            return InvalidValue("row \(number), column \(header[column]): \(value) \(problem)")
        }
    }
}
