import EventSimulation
import RetrySimulation

/// The capacity server's shape, as its options set it: what the fluid model of a `simulate` row
/// needs besides the columns ``ScenarioColumns`` declares, so that `check` answers its `fluid_`
/// cells again. Each cell is empty where the row's server (or arrivals) has no such parameter.
extension ScenarioColumns {
    static let workers = TypedColumn(
        "workers", "capacity: workers of each replica (--workers; empty for other servers)", optionalWhole(atLeast: 1))
    static let queue = TypedColumn(
        "queue", "capacity: waiting places of each replica (--queue; empty for other servers)",
        optionalWhole(atLeast: 0))
    static let duration = TypedColumn(
        "duration_s", "poisson arrivals: how long new sessions arrive (--duration), seconds (empty for other arrivals)",
        optionalSeconds(atLeast: .nanoseconds(1)))
    static let dropsExpired = TypedColumn(
        "drop_expired",
        "capacity: yes when a worker drops queued work nobody waits for (--drop-expired), else no (empty for other "
            + "servers)",
        CellCodec<Bool?>(
            "which is not yes, no or empty", write: { $0.map { $0 ? "yes" : "no" } ?? "" },
            read: { text in
                switch text {
                case "": .some(nil)
                case "yes": true
                case "no": false
                default: nil
                }
            }))
    static let degradeFrom = TypedColumn(
        "degrade_from_s", "capacity: start of the degradation window (--degrade-from), seconds (empty: none)",
        optionalSeconds(atLeast: .zero))
    static let degradeUntil = TypedColumn(
        "degrade_until_s", "capacity: end of the degradation window (--degrade-until), seconds (empty: none)",
        optionalSeconds(atLeast: .zero))
    static let degradeTo = TypedColumn(
        "degrade_to", "capacity: the capacity left in the degradation window (--degrade-to; empty: none)",
        CellCodec<Double?>(
            "which is not a number in (0, 1] or empty", write: { $0.map(CSVFormat.number) ?? "" },
            read: { text in
                guard !text.isEmpty else { return .some(nil) }
                // Unwrapped first: returned as is, a nil would promote to `.some(nil)`, an empty cell.
                guard let fraction = ValueParser.number(text), fraction > 0, fraction <= 1 else { return nil }
                return fraction
            }, holdsNumbers: true))
    /// Whether `--capacity-trace` shaped the capacity: its steps are the file's, which no cell holds.
    static let capacityTrace = TypedColumn(
        "capacity_trace",
        "capacity: yes when --capacity-trace set the capacity over time (its steps are in the file, not the table), "
            + "else no (empty for other servers)",
        dropsExpired.codec)

    /// A whole number of at least `minimum`, or empty.
    private static func optionalWhole(atLeast minimum: Int) -> CellCodec<Int?> {
        CellCodec(
            "which is not a whole number of at least \(minimum) or empty", write: { $0.map(String.init) ?? "" },
            read: { text in
                guard !text.isEmpty else { return .some(nil) }
                guard let count = ValueParser.integer(text), count >= minimum else { return nil }
                return count
            }, holdsNumbers: true)
    }

    /// Seconds of at least `minimum`, to whole nanoseconds, or empty.
    private static func optionalSeconds(atLeast minimum: Duration) -> CellCodec<Duration?> {
        CellCodec(
            "which is not a number of seconds of at least \(CSVFormat.seconds(minimum)) or empty",
            write: { $0.map(CSVFormat.seconds) ?? "" },
            read: { text in
                guard !text.isEmpty else { return .some(nil) }
                let seconds = (try? CellCodec<Duration>.positiveSeconds.read(text)) ?? (text == "0" ? .zero : nil)
                guard let seconds, seconds >= minimum else { return nil }
                return seconds
            }, holdsNumbers: true)
    }
}

extension Scenario {
    /// The capacity server's model, when the scenario's server is one.
    var capacityModel: CapacityModel? {
        if case .capacity(let model) = server { return model }
        return nil
    }
}
