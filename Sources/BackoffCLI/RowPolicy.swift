import BackoffPolicies

/// The policy a table row describes, read back from its policy columns, so that `check` can
/// recompute the row's closed forms instead of trusting its formula columns.
///
/// The columns are those every table writes: `jitter`, `base_s`, `multiplier`, `cap_s`,
/// `max_attempts` (required), and `schedule`, `decorrelated_factor`, `max_elapsed_s`, `cap_mode`,
/// `first_retry`, `granularity_s` (optional; tables written before a column existed follow its
/// default: each mode's cap rule, a jittered first retry, no granularity).
enum RowPolicy {
    static let required = ["jitter", "base_s", "multiplier", "cap_s", "max_attempts"]

    /// A column whose value does not describe a valid policy.
    struct Problem: Error {
        let column: String
        let value: String
        let reason: String

        var description: String { "column \(column) holds '\(value)', \(reason)" }
    }

    /// The row's policy; `nil` when the table lacks a required column, or the policy's schedule
    /// needs a parameter no column holds (a linear schedule's increment).
    static func policy(_ record: [String], in table: CSVReader) throws(Problem) -> BackoffPolicy? {
        guard required.allSatisfy({ table.column($0) != nil }) else { return nil }
        func value(_ column: String) -> String? { table.column(column).map { record[$0] } }

        let jitterText = value("jitter")!
        var jitter: Jitter
        do {
            jitter = try PolicyOptions.parseJitter(jitterText)
        } catch {
            throw Problem(
                column: "jitter", value: jitterText, reason: "which is not a jitter mode (\(error.detail ?? "unknown"))"
            )
        }
        if let text = value("decorrelated_factor"), !text.isEmpty {
            guard let r = ValueParser.number(text) else {
                throw Problem(column: "decorrelated_factor", value: text, reason: "not a number")
            }
            if case .decorrelated = jitter { jitter = .decorrelated(factor: r) }
            if case .decorrelatedMonotone = jitter { jitter = .decorrelatedMonotone(factor: r) }
        }
        let base = try seconds(value("base_s")!, column: "base_s")
        guard let base else { throw Problem(column: "base_s", value: "inf", reason: "but the base must be finite") }
        let cap = try seconds(value("cap_s")!, column: "cap_s")
        let maxElapsed = try value("max_elapsed_s").flatMap { text throws(Problem) in
            try seconds(text, column: "max_elapsed_s")
        }
        let attemptsText = value("max_attempts")!
        guard let attempts = ValueParser.integer(attemptsText) else {
            throw Problem(column: "max_attempts", value: attemptsText, reason: "not a whole number")
        }
        let multiplierText = value("multiplier")!
        guard let multiplier = ValueParser.number(multiplierText) else {
            throw Problem(column: "multiplier", value: multiplierText, reason: "not a number")
        }
        let schedule: BackoffSchedule
        switch value("schedule") ?? "exponential" {
        case "exponential": schedule = .exponential(multiplier: multiplier)
        case "constant": schedule = .constant
        case "immediate": schedule = .immediate
        case "linear": return nil  // its increment is in no column
        case let other:
            throw Problem(
                column: "schedule", value: other, reason: "not a schedule (exponential, constant, linear, immediate)")
        }
        var capMode: CapMode? = nil
        if let text = value("cap_mode"), !text.isEmpty {
            guard let mode = CapMode(rawValue: text) else {
                throw Problem(column: "cap_mode", value: text, reason: "not nominal or clamp")
            }
            capMode = mode
        }
        var firstRetry = FirstRetry.jittered
        if let text = value("first_retry"), !text.isEmpty {
            guard let rule = FirstRetry(rawValue: text) else {
                throw Problem(column: "first_retry", value: text, reason: "not jittered, unjittered or immediate")
            }
            firstRetry = rule
        }
        var granularity: Duration? = nil
        if let text = value("granularity_s"), !text.isEmpty, text != "0" {
            granularity = try seconds(text, column: "granularity_s")
        }
        do {
            return try BackoffPolicy(
                base: base, schedule: schedule, cap: cap, jitter: jitter, capMode: capMode,
                budget: .maxAttempts(attempts),
                maxElapsed: maxElapsed, firstRetry: firstRetry, granularity: granularity)
        } catch {
            let column = PolicyColumns.name(of: error.parameter) ?? "jitter"
            throw Problem(column: column, value: value(column) ?? "", reason: "which makes no valid policy: \(error)")
        }
    }

    /// Seconds as the tables write them, to whole nanoseconds; `inf` is `nil` (no limit).
    private static func seconds(_ text: String, column: String) throws(Problem) -> Duration? {
        if text == "inf" { return nil }
        guard let value = ValueParser.number(text), value.isFinite, abs(value) < 9e9 else {
            throw Problem(column: column, value: text, reason: "not a number of seconds")
        }
        return .nanoseconds(Int64((value * 1e9).rounded()))
    }
}
