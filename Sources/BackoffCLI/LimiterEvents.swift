/// The log `backoff limiter --events FILE` replays: CSV with the columns `time_s` (seconds, finite,
/// at least 0, never decreasing) and `event` (`send`, `success`, `throttle` or `error`), each problem named by
/// its row and column.
struct LimiterEvents: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        case send, success, throttle, error
    }

    struct Event: Sendable {
        let time: Double
        let kind: Kind
    }

    let events: [Event]

    /// The events of the file at `path`.
    @Sendable static func read(_ path: String) throws(InvalidValue) -> LimiterEvents {
        try parse(try TraceFile.load(path, what: "events file"))
    }

    /// The events of a CSV text.
    static func parse(_ text: String) throws(InvalidValue) -> LimiterEvents {
        let expected = "expected the columns time_s,event (send, success, throttle or error)"
        let table = CSVReader(text: text)
        guard !table.header.isEmpty, !table.records.isEmpty else {
            throw InvalidValue("the events file has no rows: \(expected)")
        }
        for column in ["time_s", "event"] where table.column(column) == nil {
            throw InvalidValue("the events file lacks the column \(column): \(expected)")
        }
        if let problem = table.malformedDescription { throw InvalidValue("the events file: \(problem)") }
        let (timeColumn, eventColumn) = (table.column("time_s")!, table.column("event")!)
        var events: [Event] = []
        for (index, record) in table.records.enumerated() {
            let row = TraceFile.Row(number: index + 2, record: record, header: table.header)  // the header is row 1
            let time = try row.number(timeColumn)
            guard time >= 0, time <= 1e12 else { throw row.invalid(timeColumn, "is not a time from 0 to 1e12 s") }
            if let previous = events.last, time < previous.time {
                throw row.invalid(timeColumn, "is before the previous row's time")
            }
            guard let kind = Kind(rawValue: row.text(eventColumn)) else {
                throw row.invalid(eventColumn, "is not an event (send, success, throttle or error)", quoted: true)
            }
            events.append(Event(time: time, kind: kind))
        }
        return LimiterEvents(events: events)
    }
}
