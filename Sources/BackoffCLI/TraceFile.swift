import EventSimulation
import Foundation
import RetrySimulation

/// `--server trace:FILE`: a CSV incident trace with the columns `time_s` and `failure_probability`
/// (a step function: from each time on, every attempt fails with that probability; the last holds)
/// and optionally `retry_after_s` (the delay a failure carries; empty for none). Each problem is named
/// by its row and column: times must start at 0 and not decrease, probabilities lie in [0, 1], and
/// every cell is a number.
enum TraceFile {
    /// The largest trace read: 64 MiB.
    static let limit = 64 << 20

    static func trace(path: String) throws(InvalidValue) -> FailureTrace {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: limit)
        } catch {
            switch error {
            case .unreadable: throw InvalidValue("the trace file '\(path)' cannot be read")
            case .tooLarge: throw InvalidValue("the trace file '\(path)' is larger than 64 MiB")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else { throw InvalidValue("the trace file '\(path)' is not UTF-8 text") }
        let table = CSVReader(text: text)
        guard !table.header.isEmpty, !table.records.isEmpty else {
            throw InvalidValue("the trace file '\(path)' has no rows: expected the columns time_s,failure_probability")
        }
        for column in ["time_s", "failure_probability"] where table.column(column) == nil {
            throw InvalidValue("the trace lacks the column \(column): expected the columns time_s,failure_probability "
                + "(and optionally retry_after_s)")
        }
        if table.column("capacity_factor") != nil {
            throw InvalidValue("the trace's capacity_factor column is not supported: model a capacity incident with "
                + "--server capacity and --degrade-from, --degrade-until, --degrade-to")
        }
        if table.malformedRecords > 0 { throw InvalidValue("the trace has \(table.malformedRecords) rows of another width than its header") }
        let (timeColumn, probabilityColumn) = (table.column("time_s")!, table.column("failure_probability")!)
        let retryColumn = table.column("retry_after_s")
        var steps: [FailureTrace.Step] = []
        for (index, record) in table.records.enumerated() {
            let row = index + 2  // the header is row 1
            func number(_ column: Int, _ name: String) throws(InvalidValue) -> Double {
                guard let value = ValueParser.number(record[column]), value.isFinite else {
                    throw InvalidValue("row \(row), column \(name): '\(record[column])' is not a number")
                }
                return value
            }
            let seconds = try number(timeColumn, "time_s")
            guard seconds >= 0, seconds < 9e9 else { throw InvalidValue("row \(row), column time_s: \(record[timeColumn]) is not a time in seconds >= 0") }
            if index == 0 && seconds != 0 { throw InvalidValue("row \(row), column time_s: the trace must start at 0, not \(record[timeColumn])") }
            let start = VirtualTime(nanoseconds: Int64((seconds * 1e9).rounded()))
            if let previous = steps.last, start < previous.start {
                throw InvalidValue("row \(row), column time_s: \(record[timeColumn]) is before the previous row's time")
            }
            let p = try number(probabilityColumn, "failure_probability")
            guard (0...1).contains(p) else {
                throw InvalidValue("row \(row), column failure_probability: \(record[probabilityColumn]) is not a probability in [0, 1]")
            }
            var retryAfter: Duration? = nil
            if let retryColumn, !record[retryColumn].isEmpty {
                let delay = try number(retryColumn, "retry_after_s")
                guard delay >= 0, delay < 9e9 else { throw InvalidValue("row \(row), column retry_after_s: \(record[retryColumn]) is not a delay >= 0") }
                retryAfter = .nanoseconds(Int64((delay * 1e9).rounded()))
            }
            steps.append(FailureTrace.Step(start: start, failureProbability: p, retryAfter: retryAfter))
        }
        do {
            return try FailureTrace(steps: steps, name: path)
        } catch {
            throw InvalidValue("\(error)")
        }
    }
}
