import BackoffPolicies

/// The policy a table row describes, read back from its policy columns, so that `check` can
/// recompute the row's closed forms instead of trusting its formula columns.
///
/// The columns are those every table writes: `jitter`, `base_s`, `multiplier`, `cap_s`,
/// `max_attempts` (required), and `schedule`, `decorrelated_factor`, `max_elapsed_s`, `cap_mode`,
/// `first_retry`, `granularity_s` (optional; tables written before a column existed follow its
/// default: each mode's cap rule, a jittered first retry, no granularity).
enum RowPolicy {
    static let required = [
        PolicyColumns.jitterMode.name, PolicyColumns.base.name, PolicyColumns.multiplier.name, PolicyColumns.cap.name,
        PolicyColumns.maxAttempts.name,
    ]

    /// A column whose value does not describe a valid policy.
    struct Problem: Error {
        let column: String
        let value: String
        let reason: String

        var description: String { "column \(column) holds '\(value)', \(reason)" }
    }

    /// The row's policy; `nil` when the table lacks a required column, or the policy's schedule
    /// needs a parameter no column holds (a linear schedule's increment). Each column is read
    /// through its declaration (``PolicyColumns``), the one its table was written with.
    static func policy(_ record: [String], in table: CSVReader) throws(Problem) -> BackoffPolicy? {
        guard required.allSatisfy({ table.column($0) != nil }) else { return nil }
        let columns = PolicyColumns.self
        var jitter = try columns.jitterMode.read(record, in: table)!
        if let factor = try columns.decorrelatedFactor.read(record, in: table) ?? nil {
            if case .decorrelated = jitter { jitter = .decorrelated(factor: factor) }
            if case .decorrelatedMonotone = jitter { jitter = .decorrelatedMonotone(factor: factor) }
        }
        guard let base = try columns.base.read(record, in: table)! else {
            throw Problem(column: columns.base.name, value: "inf", reason: "but the base must be finite")
        }
        let cap = try columns.cap.read(record, in: table)!
        let maxElapsed = try columns.maxElapsed.read(record, in: table) ?? nil
        let attempts = try columns.maxAttempts.read(record, in: table)!
        let multiplier = try columns.multiplier.read(record, in: table)!
        let schedule: BackoffSchedule
        switch try columns.schedule.read(record, in: table) ?? "exponential" {
        case "constant": schedule = .constant
        case "immediate": schedule = .immediate
        case "linear": return nil  // its increment is in no column
        default: schedule = .exponential(multiplier: multiplier)
        }
        let capMode = try columns.capModeColumn.read(record, in: table) ?? nil
        let firstRetry = try columns.firstRetry.read(record, in: table) ?? nil
        let granularity = try columns.granularity.read(record, in: table) ?? nil
        do throws(PolicyError) {
            return try BackoffPolicy(
                base: base, schedule: schedule, cap: cap, jitter: jitter, capMode: capMode,
                budget: .maxAttempts(attempts), maxElapsed: maxElapsed, firstRetry: firstRetry ?? .jittered,
                granularity: granularity)
        } catch {
            let column = PolicyColumns.name(of: error.parameter) ?? "jitter"
            let value = table.column(column).map { record[$0] } ?? ""
            throw Problem(column: column, value: value, reason: "which makes no valid policy: \(error)")
        }
    }
}
