/// What a replica set (``HedgedCalls``) keeps about its hosts for faulty hosts (``FaultyHosts``)
/// and a retry host predicate (``RetryHostPredicate``): the copies sent to faulty hosts, the
/// distinct hosts each client's current request tried, and the retries the predicate picked.
struct HostTracking {
    let replicas: Int
    /// The faulty hosts are the replicas numbered below it.
    let faultyHosts: Int
    let predicate: RetryHostPredicate?
    private(set) var faultyCopies = 0
    /// By client, the distinct hosts its current request tried (kept only under a predicate).
    private var triedHosts: [Int32: [Int32]] = [:]
    private(set) var tally = TriedHostTally()

    init(replicas: Int, faultyHosts: Int, predicate: RetryHostPredicate?) {
        self.replicas = replicas
        self.faultyHosts = faultyHosts
        self.predicate = predicate
    }

    /// The replica of a retry's first copy under the predicate, tallied against its closed form;
    /// -1 without a predicate (the balancer picks as for any copy).
    mutating func pickRetry(of client: Int32, _ balancer: inout ReplicaBalancer, uniform: () -> Double) -> Int {
        guard let predicate else { return -1 }
        let tried = triedHosts[client] ?? []
        let redraws: Int
        switch predicate {
        case .previousHosts(let attempts): redraws = attempts
        }
        let replica = balancer.pick(redraws: redraws, uniform: uniform) { tried.contains(Int32($0)) }
        tally.record(
            tried: tried.count, landedOnTried: tried.contains(Int32(replica)),
            probability: predicate.probabilityOfTriedHost(tried: tried.count, of: replicas))
        return replica
    }

    /// A copy of `client`'s went to `replica`: counted if the host is faulty (and batched in the
    /// order copies are sent), and, under a predicate, one of the hosts the request tried (its
    /// first copy, `startsRequest`, starts the list anew).
    mutating func copySent(to replica: Int, by client: Int32, startsRequest: Bool, batches: inout HedgeBatches?) {
        if faultyHosts > 0 {
            let isFaulty = replica < faultyHosts
            if isFaulty { faultyCopies += 1 }
            batches?.faultyShare.add(numerator: isFaulty ? 1 : 0)
        }
        guard predicate != nil else { return }
        if startsRequest { triedHosts[client, default: []].removeAll(keepingCapacity: true) }
        if !(triedHosts[client]?.contains(Int32(replica)) ?? false) {
            triedHosts[client, default: []].append(Int32(replica))
        }
    }
}
