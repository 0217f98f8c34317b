import RetrySimulation

/// A simulated mean's columns, `NAME`, `formula_NAME` and `se_NAME`: declared once, for the
/// commands that write them (waits, simulate) and for `check`, which reads them back.
extension ClosedFormMean {
    /// The measured column.
    var column: String {
        switch self {
        case .meanTotalWait: "mean_total_wait_s"
        case .attemptsPerClient: "attempts_per_client"
        case .successes: "successes"
        case .copiesPerRequest: "copies_per_request"
        case .meanResponse: "mean_response_s"
        case .workPerRequest: "work_per_request_s"
        case .faultyHostShare: "faulty_host_share"
        case .retriesToTriedHosts: "retries_to_tried_hosts"
        case .hostShare: "share"
        }
    }

    /// The closed form's column.
    var formulaColumn: String { "formula_" + column }

    /// The standard error's column.
    var standardErrorColumn: String { "se_" + column }
}
