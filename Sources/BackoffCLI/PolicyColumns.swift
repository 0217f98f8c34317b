import BackoffPolicies

/// The policy columns that every table shares: `base_s,multiplier,cap_s,max_attempts` after the
/// jitter column, and `schedule,decorrelated_factor,max_elapsed_s` further on.
enum PolicyColumns {
    // Each policy column, declared once: the tables write it and `check` reads it back (RowPolicy).
    static let jitterMode: TypedColumn<Jitter> = TypedColumn("jitter", "jitter mode", jitterCodec, reporting: .jitter)
    static let base = TypedColumn("base_s", "base b, seconds", .seconds, reporting: .base)
    static let multiplier = TypedColumn(
        "multiplier", "multiplier m (1 for schedules other than exponential)", .number, reporting: .multiplier)
    static let cap = TypedColumn("cap_s", "cap c, seconds (inf: no cap)", .seconds, reporting: .cap)
    static let maxAttempts = TypedColumn("max_attempts", "attempts per request n", .count, reporting: .attempts)
    // A linear schedule's increment is in no column: its errors name the schedule.
    static let schedule = TypedColumn(
        "schedule", "exponential, constant, linear or immediate", scheduleCodec, reporting: .increment)
    static let decorrelatedFactor = TypedColumn(
        "decorrelated_factor", "r of decorrelated and decorrelated-monotone jitter (empty for other modes)",
        .numberOrEmpty, reporting: .decorrelatedFactor)
    static let maxElapsed = TypedColumn(
        "max_elapsed_s", "total-time limit, seconds (inf: none)", .seconds, reporting: .maxElapsed)
    static let capModeColumn: TypedColumn<CapMode?> = TypedColumn(
        "cap_mode", "where the cap applies: nominal (before the jitter) or clamp (min(cap, draw))",
        .rawOrEmpty("not nominal or clamp"), reporting: .capMode)
    static let firstRetry: TypedColumn<FirstRetry?> = TypedColumn(
        "first_retry", "the first retry's wait: jittered (drawn), unjittered (e_1 exactly) or immediate (0)",
        .rawOrEmpty("not jittered, unjittered or immediate"), reporting: .firstRetry)
    static let granularity = TypedColumn(
        "granularity_s", "the unit each wait is floored to, seconds (0: none, waits to the nanosecond)",
        .secondsOrZero, reporting: .granularity)

    /// A jitter mode by its name (a decorrelated mode's factor is in `decorrelated_factor`).
    static let jitterCodec = CellCodec<Jitter>(
        write: JitterSpec.print,
        read: { text throws(CellCodec<Jitter>.Unreadable) in
            do throws(InvalidValue) {
                return try JitterSpec.parse(text)
            } catch {
                throw .init(reason: "which is not a jitter mode (\(error.detail ?? "unknown"))")
            }
        })

    /// The schedule's name (a linear schedule's increment is in no column).
    static let scheduleCodec = CellCodec<String>(
        "not a schedule (exponential, constant, linear, immediate)", write: { $0 },
        read: { ["exponential", "constant", "linear", "immediate"].contains($0) ? $0 : nil })

    /// `base_s,multiplier,cap_s,max_attempts`, after the jitter column.
    static func leading<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> [Column<Source>] {
        [
            base.column { policy($0).base }, multiplier.column { policy($0).multiplier }, cap.column { policy($0).cap },
            maxAttempts.column { policy($0).maxAttempts },
        ]
    }

    /// `schedule,decorrelated_factor,max_elapsed_s`, further on.
    static func trailing<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> [Column<Source>] {
        [
            schedule.column { policy($0).schedule.name },
            decorrelatedFactor.column { policy($0).jitter.decorrelatedFactor },
            maxElapsed.column { policy($0).maxElapsed },
        ]
    }

    /// `cap_mode`, the cap rule in force (every table ends with it, as the newest policy column).
    static func capMode<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> Column<Source> {
        capModeColumn.column { policy($0).capMode }
    }

    /// `first_retry,granularity_s`: how the waits are shaped after the draw (every table ends with
    /// them, as the newest policy columns).
    static func shape<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> [Column<Source>] {
        [firstRetry.column { policy($0).firstRetry }, granularity.column { policy($0).granularity }]
    }

    /// The column that reports `parameter`, by the declarations above.
    static func name(of parameter: PolicyParameter) -> String? {
        let columns =
            [jitter { $0 }] + leading { (policy: BackoffPolicy) in policy } + trailing { $0 } + [capMode { $0 }]
            + shape { $0 }
        return columns.first { $0.policyParameters.contains(parameter) }?.name
    }

    static func jitter<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> Column<Source> {
        jitterMode.column { policy($0).jitter }
    }
}
