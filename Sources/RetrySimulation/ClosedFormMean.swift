import BackoffPolicies

/// A mean that a run measures and that has a closed form where its scenario allows one. The
/// tables write each beside its closed form and its standard error; `backoff check` recomputes the
/// closed form from a row's own parameters (``ClosedForms``) and compares.
public enum ClosedFormMean: CaseIterable, Hashable, Sendable {
    /// The mean total wait of a request, seconds.
    case meanTotalWait
    /// Attempts per client.
    case attemptsPerClient
    /// Requests that succeeded (a count: the success fraction times the clients).
    case successes
    /// A hedge's copies per request.
    case copiesPerRequest
    /// A hedge's mean response time, seconds.
    case meanResponse
    /// A hedge's work per request, seconds of service.
    case workPerRequest
    /// The share of copies sent to a faulty host (``Scenario/faultyHostShareFormula``).
    case faultyHostShare
    /// The share of the retries picked under a retry host predicate that went back to a host
    /// their request had tried; its formula is the mean of (a/n)^(N+1) over the run's retries.
    case retriesToTriedHosts
    /// One host's share of the copies sent to a replica set (a hosts report's row): 1/K where each
    /// copy's host is uniform.
    case hostShare

    /// True for the hedge's means: their closed forms assume that every copy starts at once (no
    /// copy waits for a worker or is turned away), and their standard errors that requests are
    /// independent, which load breaks.
    public var holdsOnlyWithoutQueueing: Bool {
        switch self {
        case .meanTotalWait, .attemptsPerClient, .successes, .faultyHostShare, .retriesToTriedHosts, .hostShare: false
        case .copiesPerRequest, .meanResponse, .workPerRequest: true
        }
    }
}

/// The closed forms of a policy's or a scenario's means, by mean: a value, `.some(nil)` for a mean
/// without a closed form there, and `nil` for a mean the kind of run does not have (a policy's
/// waits have no attempts per client).
public struct ClosedForms: Sendable {
    private let values: [ClosedFormMean: Double?]

    /// The forms of a policy's waits: the mean total wait (`BackoffPolicy.totalWaitMoments`).
    public init(policy: BackoffPolicy) {
        values = [.meanTotalWait: policy.totalWaitMoments?.mean]
    }

    /// The forms of a scenario's run (``Scenario/closedForm``), and, with `hedge`, of its hedged
    /// requests (``Scenario/hedgeClosedForm``: a caller that does not know the service time, which
    /// they depend on, leaves them out).
    public init(scenario: Scenario, hedge: Bool) {
        let form = scenario.closedForm
        var values: [ClosedFormMean: Double?] = [
            .attemptsPerClient: form?.attemptsPerClient, .meanTotalWait: form?.meanTotalWait,
            .successes: form.map { $0.successFraction * Double(scenario.clients) },
        ]
        if hedge {
            // updateValue: a subscript's `= nil` would remove the mean instead of recording that it
            // has no closed form.
            let hedge = scenario.hedgeClosedForm
            values.updateValue(hedge?.copies, forKey: .copiesPerRequest)
            values.updateValue(hedge?.meanResponse, forKey: .meanResponse)
            values.updateValue(hedge?.work, forKey: .workPerRequest)
        }
        values.updateValue(scenario.faultyHostShareFormula, forKey: .faultyHostShare)
        self.values = values
    }

    /// The closed form of `mean`: `nil` when the run has no such mean, `.some(nil)` when it has no
    /// closed form.
    public subscript(_ mean: ClosedFormMean) -> Double?? { values[mean] }
}
