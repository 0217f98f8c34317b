import BackoffPolicies

extension Scenario {
    /// The closed forms of the scenario's hedge (``activeHedge``: one copy without a hedge) where no
    /// copy waits for a worker: expected copies per request, response time and work per request in
    /// seconds. `nil` when the run does not go through replicas, the capacity changes over time,
    /// the delay is a percentile of what the run sees (Finagle's: it has no closed form), or a
    /// per-try timeout's backoff draws make more start schedules than the forms average over.
    /// Under load, copies queue and the simulation departs from them: by how much is the point.
    public var hedgeClosedForm: (copies: Double, meanResponse: Double, work: Double)? {
        guard runsReplicaSet, case .capacity(let model) = server, model.degradation == nil,
            model.capacityProfile == nil
        else { return nil }
        // The hedge in force, the start's or a layer's (`hedging` is the start's alone).
        let hedge = activeHedge ?? .single
        guard hedge.startSchedules() != nil else { return nil }
        let service = model.serviceTime
        return (hedge.expectedCopies(service), hedge.expectedResponse(service) / 1e9, hedge.expectedWork(service) / 1e9)
    }
}
