import RetrySimulation

extension RequestOutcome {
    /// The outcome as `--requests FILE` writes it.
    var columnText: String {
        switch self {
        case .succeeded: "succeeded"
        case .permanentFailure: "permanent_failure"
        case .gaveUp: "gave_up"
        case .deniedByBudget: "denied_by_budget"
        case .rejectedLocally: "rejected_locally"
        case .deadlineExceeded: "deadline_exceeded"
        }
    }
}
