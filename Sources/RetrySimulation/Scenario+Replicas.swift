import BackoffPolicies

/// The capacity server's replica set as a scenario runs it: how many replicas, how they share
/// copies, and the hedge in front of them.
extension Scenario {
    /// The capacity server's replicas, 1 for any other server.
    public var replicas: Int {
        if case .capacity(let model) = server { return model.replicas }
        return 1
    }

    /// The capacity server's balancer (random for any other server).
    public var balancer: Balancer {
        if case .capacity(let model) = server { return model.balancer }
        return .random
    }

    /// The capacity server's faulty hosts (`nil` for none, or for any other server).
    public var faultyHosts: FaultyHosts? {
        if case .capacity(let model) = server { return model.faultyHosts }
        return nil
    }

    /// How the clients' retries pick their replica beyond the balancer (`nil`: as any copy).
    public var retryHostPredicate: RetryHostPredicate? {
        if case .capacity(let model) = server { return model.retryHostPredicate }
        return nil
    }

    /// The capacity server's outlier detection (`nil`: none).
    public var outlierDetection: OutlierDetection? {
        if case .capacity(let model) = server { return model.outlierDetection }
        return nil
    }

    /// True when the run goes through `HedgedReplicas` (below the layers, in a stack): a hedge,
    /// more than one replica, a faulty host, a retry host predicate or outlier detection. Its
    /// report then holds the requests' response times, copies and work (``HedgeTally``).
    public var runsReplicaSet: Bool {
        activeHedge != nil || replicas > 1 || faultyHosts != nil || retryHostPredicate != nil
            || outlierDetection != nil
    }

    /// The scenario with each host's load counted where it runs through a replica set
    /// (``HedgeTally/hosts``, one ``HostLoad`` per replica). The copies go where they would have
    /// gone: every number of the run is the same.
    public func countingHostLoads() -> Scenario {
        var scenario = self
        scenario.countsHostLoads = true
        return scenario
    }

    /// The hedge at the replicas: the clients' (`hedging`) without layers, the bottom layer's in a
    /// stack (a client's hedge over layers sends its copies into the top layer: `LayerHedge`).
    public var activeHedge: Hedging? { layers.isEmpty ? hedging : layers.last?.hedging }
}
