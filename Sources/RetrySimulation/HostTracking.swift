import EventSimulation

/// What a replica set (``HedgedCalls``) keeps about its hosts for faulty hosts (``FaultyHosts``),
/// a retry host predicate (``RetryHostPredicate``) and outlier detection (``OutlierDetection``):
/// the copies sent to faulty hosts, the distinct hosts each client's current request tried, the
/// retries the predicate picked, and the hosts ejected.
struct HostTracking {
    let replicas: Int
    /// The faulty hosts are the replicas numbered below it.
    let faultyHosts: Int
    let predicate: RetryHostPredicate?
    private(set) var faultyCopies = 0
    /// By client, the distinct hosts its current request tried (kept only under a predicate).
    private var triedHosts: [Int32: [Int32]] = [:]
    private(set) var tally = TriedHostTally()
    /// Envoy's outlier detection, in nanoseconds: each host's failures in a row, when it is back
    /// (0: not ejected) and how often it was ejected; the hosts out now, and the run's ejections
    /// and the time they were scheduled for.
    let detection: OutlierDetection?
    private let interval: Int64, baseEjection: Int64, mostEjected: Int
    private var failuresInARow: [Int32], backAt: [Int64], timesEjected: [Int32]
    private(set) var ejectedNow = 0, ejections = 0
    /// The soonest a host out comes back: until then no copy scans the hosts.
    private var soonestBack = Int64.max
    private(set) var ejectedNanoseconds = WideSum()
    /// Each host's load, where the run counts it (``Scenario/countsHostLoads``).
    private(set) var loads: [HostLoad]?

    init(
        replicas: Int, faultyHosts: Int, predicate: RetryHostPredicate?, detection: OutlierDetection? = nil,
        countsLoads: Bool = false
    ) {
        self.replicas = replicas
        self.faultyHosts = faultyHosts
        self.predicate = predicate
        self.detection = detection
        loads = countsLoads ? [HostLoad](repeating: HostLoad(), count: replicas) : nil
        interval = detection?.interval.wholeNanoseconds ?? 0
        baseEjection = detection?.baseEjectionTime.wholeNanoseconds ?? 0
        mostEjected = detection?.mostEjected(of: replicas) ?? 0
        let count = detection == nil ? 0 : replicas
        (failuresInARow, backAt, timesEjected) = (
            .init(repeating: 0, count: count), .init(repeating: 0, count: count),
            .init(repeating: 0, count: count)
        )
    }

    /// Whether `replica` is ejected (as of the last ``returnEjected(now:)``).
    func isEjected(_ replica: Int) -> Bool { ejectedNow > 0 && backAt[replica] > 0 }

    /// The hosts whose ejection ended by `now` are back; returns whether any host is still out.
    mutating func returnEjected(now: Int64) -> Bool {
        guard ejectedNow > 0, now >= soonestBack else { return ejectedNow > 0 }
        soonestBack = .max
        for host in backAt.indices where backAt[host] > 0 {
            if backAt[host] <= now {
                backAt[host] = 0
                ejectedNow -= 1
            } else {
                soonestBack = min(soonestBack, backAt[host])
            }
        }
        return ejectedNow > 0
    }

    /// A copy at `replica` was answered now, failed or not: a host's failures in a row reach the
    /// detector's count, and it is ejected while fewer than the most are out. It is back at the
    /// first interval tick at or after now + base × the times it was ejected.
    mutating func answered(at replica: Int, failed: Bool, now: Int64) {
        guard let detection else { return }
        guard failed else {
            failuresInARow[replica] = 0
            return
        }
        failuresInARow[replica] += 1
        _ = returnEjected(now: now)
        guard failuresInARow[replica] >= detection.consecutiveFailures, backAt[replica] == 0,
            ejectedNow < mostEjected
        else { return }
        failuresInARow[replica] = 0
        timesEjected[replica] += 1
        let (span, overflow) = baseEjection.multipliedReportingOverflow(by: Int64(timesEjected[replica]))
        let horizon = VirtualTime.horizon.nanoseconds
        let end = overflow || span > horizon - now ? horizon : now + span
        let ticks = (end + interval - 1) / interval  // both at most 2^62: no overflow
        backAt[replica] = max(ticks * interval, now + 1)
        soonestBack = min(soonestBack, backAt[replica])
        ejectedNow += 1
        ejections += 1
        ejectedNanoseconds.add(low: UInt64(backAt[replica] - now))
        loads?[replica].ejections += 1
        loads?[replica].ejectedNanoseconds += UInt64(backAt[replica] - now)
    }

    /// A copy at `replica` reached its call with `answer`: the host's load counts a success or a
    /// failure (a permanent error is the request's own, as outlier detection reads it: neither).
    mutating func countAnswer(at replica: Int, _ answer: ClientAnswer) {
        switch answer {
        case .success: loads?[replica].successes += 1
        case .failure: loads?[replica].failures += 1
        case .permanentError, .timeout, .rejectedLocally, .deadlineExceeded: break
        }
    }

    /// A copy's service at `replica` ended (or was withdrawn) after `busy` nanoseconds.
    mutating func countWork(at replica: Int, _ busy: UInt64) { loads?[replica].busyNanoseconds += busy }

    /// The replica of a retry's first copy under the predicate, tallied against its closed form;
    /// -1 without a predicate (the balancer picks as for any copy).
    mutating func pickRetry(of client: Int32, _ balancer: inout ReplicaBalancer, uniform: () -> Double) -> Int {
        guard let predicate else { return -1 }
        let tried = triedHosts[client] ?? []
        let redraws: Int
        switch predicate {
        case .previousHosts(let attempts): redraws = attempts
        }
        let ejecting = ejectedNow > 0
        let replica = balancer.pick(
            redraws: redraws, avoids: ejecting, isAvoided: { isEjected($0) }, uniform: uniform,
            isTried: { tried.contains(Int32($0)) })
        tally.record(
            tried: tried.count, landedOnTried: tried.contains(Int32(replica)),
            probability: predicate.probabilityOfTriedHost(tried: tried.count, of: replicas))
        return replica
    }

    /// A copy of `client`'s went to `replica`: counted if the host is faulty (and batched in the
    /// order copies are sent), and, under a predicate, one of the hosts the request tried (its
    /// first copy, `startsRequest`, starts the list anew).
    mutating func copySent(to replica: Int, by client: Int32, startsRequest: Bool, batches: inout HedgeBatches?) {
        loads?[replica].copies += 1
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
