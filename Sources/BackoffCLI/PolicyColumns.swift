import BackoffPolicies

/// The policy columns that every table shares: `base_s,multiplier,cap_s,max_attempts` after the
/// jitter column, and `schedule,decorrelated_factor,max_elapsed_s` further on.
enum PolicyColumns {
    static func leading<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> [Column<Source>] {
        [
            Column("base_s", "base b, seconds") { CSVFormat.seconds(policy($0).base) }.reporting(.base),
            Column("multiplier", "multiplier m (1 for schedules other than exponential)") {
                CSVFormat.number(policy($0).multiplier)
            }.reporting(.multiplier),
            Column("cap_s", "cap c, seconds (inf: no cap)") { CSVFormat.seconds(policy($0).cap) }.reporting(.cap),
            Column("max_attempts", "attempts per request n") { CSVFormat.integer(policy($0).maxAttempts) }
                .reporting(.attempts),
        ]
    }

    static func trailing<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> [Column<Source>] {
        [
            // A linear schedule's increment is in no column: its errors name the schedule.
            Column("schedule", "exponential, constant, linear or immediate") { policy($0).schedule.name }
                .reporting(.increment),
            Column("decorrelated_factor", "r of decorrelated and decorrelated-monotone jitter (empty for other modes)")
            {
                policy($0).jitter.decorrelatedFactor.map(CSVFormat.number) ?? ""
            }.reporting(.decorrelatedFactor),
            Column("max_elapsed_s", "total-time limit, seconds (inf: none)") {
                CSVFormat.seconds(policy($0).maxElapsed)
            }.reporting(.maxElapsed),
        ]
    }

    /// `cap_mode`, the cap rule in force (every table ends with it, as the newest policy column).
    static func capMode<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> Column<Source> {
        Column("cap_mode", "where the cap applies: nominal (before the jitter) or clamp (min(cap, draw))") {
            policy($0).capMode.rawValue
        }.reporting(.capMode)
    }

    /// `first_retry,granularity_s`: how the waits are shaped after the draw (every table ends with
    /// them, as the newest policy columns).
    static func shape<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> [Column<Source>] {
        [
            Column("first_retry", "the first retry's wait: jittered (drawn), unjittered (e_1 exactly) or immediate (0)")
            {
                policy($0).firstRetry.rawValue
            }.reporting(.firstRetry),
            Column("granularity_s", "the unit each wait is floored to, seconds (0: none, waits to the nanosecond)") {
                policy($0).granularity.map(CSVFormat.seconds) ?? "0"
            }.reporting(.granularity),
        ]
    }

    /// The column that reports `parameter`, by the declarations above.
    static func name(of parameter: PolicyParameter) -> String? {
        let columns =
            [jitter { $0 }] + leading { (policy: BackoffPolicy) in policy } + trailing { $0 } + [capMode { $0 }]
            + shape { $0 }
        return columns.first { $0.policyParameters.contains(parameter) }?.name
    }

    static func jitter<Source>(_ policy: @escaping @Sendable (Source) -> BackoffPolicy) -> Column<Source> {
        Column("jitter", "jitter mode") { policy($0).jitter.name }.reporting(.jitter)
    }
}
