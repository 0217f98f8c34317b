import Stochastics

extension Scenario {
    /// The most runs one replicated run makes (``replicated(_:)``).
    public static let maximumReplications = 10_000

    /// This scenario, run `count` times by ``run(seed:arrivalSeed:algorithm:requestLog:jobs:progress:)``
    /// (see ``replications``).
    /// - Throws: ``SimulationError/replicationsOutOfRange(_:)`` outside 1 ... ``maximumReplications``.
    public func replicated(_ count: Int) throws(SimulationError) -> Scenario {
        guard (1...Self.maximumReplications).contains(count) else { throw .replicationsOutOfRange(count) }
        var scenario = self
        scenario.replications = count
        return scenario
    }

    /// Whether the clients share a state, so that a client's outcome may depend on the others': a
    /// server that answers after a while (its workers and queue, its tokens, the contended item) or
    /// limits they share (``sharesLimits``).
    public var clientsInteract: Bool { !server.answersAtOnce || sharesLimits }

    /// Whether the clients share limits: a retry budget, breaker or throttle (all shared), a shared
    /// rate limiter, or a layer's budget, breaker or behaviours (a concurrency cap).
    public var sharesLimits: Bool {
        if limits.budget != nil || limits.breaker != nil || limits.throttle != nil { return true }
        if let limiter = limits.rateLimiter, limiter.scope == .shared { return true }
        return layers.contains { !$0.limits.isEmpty || !$0.settings.isEmpty }
    }

    /// Whether one run cannot measure its own standard errors: a burst of clients that interact
    /// (``clientsInteract``) is one draw of the state they share, and the sessions' spread within it
    /// says nothing of the spread from seed to seed. Run once, such a scenario reports its standard
    /// errors as NaN (``StandardErrorMethod/unmeasured``), unless the run shows that its clients
    /// never met (``metNoOtherClient(in:)``); ``replications`` of 2 or more measure them.
    public var needsReplications: Bool {
        guard case .burst = arrivals else { return false }
        return clientsInteract
    }

    /// Whether the run of `report` went as if each client had the server to itself: a capacity
    /// server (its replicas and hedges included) and no shared limits, where no attempt or copy
    /// waited in a queue or was turned away, so every attempt's outcome was its own service
    /// time's. Its sessions were then independent, and their spread is the standard error.
    public func metNoOtherClient(in report: ScenarioReport) -> Bool {
        guard case .capacity = server, !sharesLimits else { return false }
        return report.peakQueue == 0 && report.rejected == 0
    }

    /// The seed of replication `index` (1 ..< ``replications``) under `seed`: stream `index` of a
    /// root of its own, apart from the clients' streams (streams 0, 1, ... of `seed` itself).
    static func replicationSeed(_ seed: UInt64, _ index: Int) -> UInt64 {
        let root = SeedDerivation.streamSeed(root: seed, stream: .max)
        return SeedDerivation.streamSeed(root: root, stream: UInt64(index))
    }

    /// `report`, the run under `seed`, with the standard errors ``replications`` say: measured
    /// from the means of `replications - 1` more runs under ``replicationSeed(_:_:)`` (their
    /// arrivals drawn anew, the other runs' options the same), or NaN for a scenario that
    /// ``needsReplications`` and was run once (unless its clients ``metNoOtherClient(in:)``), or
    /// the run's own.
    func measuringStandardErrors(
        of report: ScenarioReport, seed: UInt64, arrivalSeed: UInt64?, algorithm: GeneratorAlgorithm,
        path: ScenarioPath, jobs: Int, progress: RunProgress?
    ) throws -> ScenarioReport {
        var report = report
        guard replications > 1 else {
            if needsReplications && !metNoOtherClient(in: report) {
                report.replaceStandardErrors(.unmeasured, with: ReplicatedMeans.unmeasured)
            }
            return report
        }
        var means = [ReplicatedMeans(report)]
        for index in 1..<replications {
            let other = try run(
                seed: Self.replicationSeed(seed, index),
                arrivalSeed: arrivalSeed.map { Self.replicationSeed($0, index) }, algorithm: algorithm, path: path,
                jobs: jobs, progress: progress)
            means.append(ReplicatedMeans(other))
        }
        report.replaceStandardErrors(.replications(replications), with: ReplicatedMeans.spread(of: means))
        return report
    }
}

/// The means of one run whose spread over replications is a report's standard errors.
struct ReplicatedMeans {
    var attemptsPerClient, meanTotalWait, successes: Double
    /// The hedge's copies, work and mean response per request, and the share of copies at faulty
    /// hosts (NaN without a hedge, or without faulty hosts).
    var copies, work, response, faultyShare: Double

    init(_ report: ScenarioReport) {
        attemptsPerClient = report.attemptsPerClient
        meanTotalWait = report.totalWait.mean
        successes = Double(report.successes)
        copies = report.hedge?.copiesPerRequest ?? .nan
        work = report.hedge?.workPerRequest ?? .nan
        response = report.hedge?.responses.mean ?? .nan
        faultyShare = report.hedge?.faultyHostShare ?? .nan
    }

    private init(_ values: [Double]) {
        (attemptsPerClient, meanTotalWait, successes) = (values[0], values[1], values[2])
        (copies, work, response, faultyShare) = (values[3], values[4], values[5], values[6])
    }

    private var values: [Double] {
        [attemptsPerClient, meanTotalWait, successes, copies, work, response, faultyShare]
    }

    /// Every mean NaN.
    static let unmeasured = ReplicatedMeans([Double](repeating: .nan, count: 7))

    /// Each mean's sample standard deviation over `runs` (at least 2): the standard error of one
    /// run's mean, with `runs.count - 1` degrees of freedom.
    static func spread(of runs: [ReplicatedMeans]) -> ReplicatedMeans {
        precondition(runs.count >= 2, "a spread needs two runs")
        let columns = runs.map(\.values)
        return ReplicatedMeans(
            (0..<7).map { column in
                let values = columns.map { $0[column] }
                let mean = values.reduce(0, +) / Double(values.count)
                let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
                return (squares / Double(values.count - 1)).squareRoot()
            })
    }
}

extension ScenarioReport {
    /// The standard errors measured by `method`, in place of the run's own.
    mutating func replaceStandardErrors(_ method: StandardErrorMethod, with errors: ReplicatedMeans) {
        errorMethod = method
        attemptsStandardError = errors.attemptsPerClient
        meanTotalWaitStandardError = errors.meanTotalWait
        successesStandardError = errors.successes
        hedge?.replaceStandardErrors(
            with: HedgeBatches.Errors(
                copies: errors.copies, work: errors.work, response: errors.response,
                faultyShare: errors.faultyShare.isNaN ? nil : errors.faultyShare))
    }
}
