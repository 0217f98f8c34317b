/// A simulated mean that a table writes beside its closed form and its standard error, in the
/// columns `NAME`, `formula_NAME` and `se_NAME`: declared once, for the commands that write them
/// (waits, simulate) and for `check`, which reads them back.
enum CheckedMean: CaseIterable, Sendable {
    case meanTotalWait
    case attemptsPerClient
    case successes

    /// The measured column.
    var column: String {
        switch self {
        case .meanTotalWait: "mean_total_wait_s"
        case .attemptsPerClient: "attempts_per_client"
        case .successes: "successes"
        }
    }

    /// The closed form's column.
    var formulaColumn: String { "formula_" + column }

    /// The standard error's column.
    var standardErrorColumn: String { "se_" + column }
}

/// The closed forms `check` recomputes from a row's own columns, by the mean they belong to: a
/// value, `.some(nil)` for a mean without a closed form there, and absent for a mean the row's kind
/// does not have (a waits row has no attempts per client).
struct RecomputedForms {
    private var values: [CheckedMean: Double?] = [:]

    init(_ values: [CheckedMean: Double?]) { self.values = values }

    subscript(_ mean: CheckedMean) -> Double?? { values[mean] }
}
