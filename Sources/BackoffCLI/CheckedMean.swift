/// A simulated mean that a table writes beside its closed form and its standard error, in the
/// columns `NAME`, `formula_NAME` and `se_NAME`: declared once, for the commands that write them
/// (waits, simulate) and for `check`, which reads them back.
enum CheckedMean: CaseIterable, Sendable {
    case meanTotalWait
    case attemptsPerClient
    case successes
    /// The hedge's means, whose closed forms hold where no copy waits for a worker or is turned
    /// away (``holdsOnlyWithoutQueueing``).
    case copiesPerRequest
    case meanResponse
    case workPerRequest

    /// The measured column.
    var column: String {
        switch self {
        case .meanTotalWait: "mean_total_wait_s"
        case .attemptsPerClient: "attempts_per_client"
        case .successes: "successes"
        case .copiesPerRequest: "copies_per_request"
        case .meanResponse: "mean_response_s"
        case .workPerRequest: "work_per_request_s"
        }
    }

    /// True for the hedge's means: their closed forms assume that every copy starts at once, so a
    /// row is compared with them only when its `peak_queue` and `rejected` are 0; and their standard
    /// errors assume independent requests, which load breaks, so a baseline compares them by `--rel`.
    var holdsOnlyWithoutQueueing: Bool {
        switch self {
        case .meanTotalWait, .attemptsPerClient, .successes: false
        case .copiesPerRequest, .meanResponse, .workPerRequest: true
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
