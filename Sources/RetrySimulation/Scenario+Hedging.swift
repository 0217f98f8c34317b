import BackoffPolicies

extension Scenario {
    /// The closed forms of the scenario's hedge (``activeHedge``: one copy without a hedge) where no
    /// copy waits for a worker: expected copies per request, response time and work per request in
    /// seconds. `nil` when the run does not go through replicas, the capacity changes over time, a
    /// host is faulty (``FaultyHosts``),
    /// the delay is a percentile of what the run sees (Finagle's: it has no closed form), or a
    /// per-try timeout's backoff draws make more start schedules than the forms average over.
    /// Under load, copies queue and the simulation departs from them: by how much is the point.
    public var hedgeClosedForm: (copies: Double, meanResponse: Double, work: Double)? {
        guard runsReplicaSet, case .capacity(let model) = server, model.degradation == nil,
            model.capacityProfile == nil, model.faultyHosts == nil
        else { return nil }
        // The hedge in force, the start's or a layer's (`hedging` is the start's alone).
        let hedge = activeHedge ?? .single
        guard hedge.startSchedules() != nil else { return nil }
        let service = model.serviceTime
        return (hedge.expectedCopies(service), hedge.expectedResponse(service) / 1e9, hedge.expectedWork(service) / 1e9)
    }

    /// The expected share of copies sent to a faulty host: f/K for f faulty hosts of K under a
    /// random balancer with one copy per call (no hedge). Each copy's host is then drawn uniformly
    /// after whatever decided to send it, so E[faulty copies] = (f/K) E[copies], however the
    /// failures drive the retries. `nil` without faulty hosts, for another balancer (least request
    /// favours a host that fails fast; round robin is f/K to within one copy, not in expectation)
    /// with a hedge (a call's copies avoid the hosts it used, so a copy after a faulty one is less
    /// likely faulty, and a failure sends the next copy at once), with outlier detection (which
    /// takes a failing host out of the draw), or with a retry host predicate that redraws (a retry
    /// after a faulty host avoids it: one fail-fast host of 10, 3 attempts, `previous-hosts:attempts=3`
    /// sends it 0.091 of the copies, 3.6 standard errors below 0.1; `attempts=0` only watches).
    public var faultyHostShareFormula: Double? {
        guard let faulty = faultyHosts, hostShareFormulaHolds else { return nil }
        return Double(faulty.count) / Double(replicas)
    }

    /// Whether each copy's host is drawn uniformly among the replicas, after whatever decided to
    /// send the copy: a replica set under a random balancer with one copy per call, no outlier
    /// detection and no retry host predicate that redraws. Each host then gets 1/K of the copies in
    /// expectation (``HostLoad``), and f faulty hosts f/K (``faultyHostShareFormula``).
    public var hostShareFormulaHolds: Bool {
        guard runsReplicaSet, balancer == .random, activeHedge == nil, outlierDetection == nil else { return false }
        if case .previousHosts(let redraws) = retryHostPredicate, redraws > 0 { return false }
        return true
    }

    /// Whether a retry's host is drawn as ``RetryHostPredicate/probabilityOfTriedHost(tried:of:)``
    /// has it: a random balancer, no host ever taken out of the draw.
    public var retryHostFormulaHolds: Bool { balancer == .random && outlierDetection == nil }
}
