import Stochastics

/// What the hedged requests of a run did (`HedgedReplicas`): the requests the replicas answered,
/// the copies they sent, the servers' work and each request's response time.
public struct HedgeTally: Hashable, Sendable {
    /// Requests that reached the replicas (each client attempt is one; it is answered with a
    /// success, a permanent error, or a failure once every copy failed, unless its client stopped
    /// waiting first).
    public let requests: Int
    /// Copies sent to the replicas, the first ones included.
    public let copies: Int
    /// Copies sent to a faulty host (``FaultyHosts``): 0 without one.
    public let faultyCopies: Int
    /// The retries a retry host predicate picked a replica for (``RetryHostPredicate``), `nil`
    /// without one.
    public let triedHosts: TriedHostTally?
    /// Under outlier detection (``OutlierDetection``): the ejections, and the seconds they were
    /// scheduled to last (each from its start to the interval tick that brings the host back);
    /// `nil` without it.
    public let ejections: Ejections?

    /// Outlier detection's ejections of a run.
    public struct Ejections: Hashable, Sendable {
        public let count: Int
        public let seconds: Double
    }
    /// Each host's load, by replica number, where the run counted it (``Scenario/countsHostLoads``);
    /// `nil` otherwise.
    public let hosts: [HostLoad]?
    /// Copies withdrawn by a cancellation before their work ended (queued or in service).
    public let withdrawn: Int
    /// Copies after the first that a budget refused, so they were not sent: the shared retry
    /// budget (gRPC's token bucket at or below half its tokens), or Finagle's backup budget.
    public let refused: Int
    /// The workers' busy time for every copy, from its service's start to its end or withdrawal,
    /// in seconds.
    public let work: Double
    /// Each answered request's response time, from the client's attempt reaching the replicas to
    /// the answer, in seconds; its quantiles (0.5, 0.99, 0.999) are exact.
    public let responses: Summary
    /// The same times, ascending.
    private let sortedResponses: [Double]
    /// Σ w² over the requests, w a request's work in seconds, and Σ c², c its copies.
    private let workSquares: Double, copySquares: Double
    /// The standard errors of copies, work and mean response from batches of requests, where the
    /// clients arrive over time, or from replications (``ScenarioReport/errorMethod``); `nil`
    /// otherwise, or below 64 requests.
    private var measuredErrors: HedgeBatches.Errors?

    init(
        requests: Int, copies: Int, faultyCopies: Int = 0, triedHosts: TriedHostTally? = nil,
        ejections: Ejections? = nil, hosts: [HostLoad]? = nil, withdrawn: Int,
        refused: Int, work: Double,
        workSquares: Double,
        copySquares: Double, responseTimes: [Double], batches: HedgeBatches? = nil
    ) {
        measuredErrors = batches?.standardErrors(responses: responseTimes)
        usesBatchMeans = measuredErrors != nil
        self.requests = requests
        self.copies = copies
        self.faultyCopies = faultyCopies
        self.triedHosts = triedHosts
        self.ejections = ejections
        self.hosts = hosts
        self.withdrawn = withdrawn
        self.refused = refused
        self.work = work
        self.workSquares = workSquares
        self.copySquares = copySquares
        sortedResponses = responseTimes.sorted()
        responses = responseTimes.isEmpty ? Summary([.nan]) : Summary(responseTimes, quantiles: [0.5, 0.99, 0.999])
    }

    /// Copies per request.
    public var copiesPerRequest: Double { requests > 0 ? Double(copies) / Double(requests) : .nan }
    /// The share of copies that went to a faulty host.
    public var faultyHostShare: Double { copies > 0 ? Double(faultyCopies) / Double(copies) : .nan }

    /// The standard error of ``faultyHostShare``: from batches of copies in the order they were
    /// sent where the clients arrive over time (a least-request balancer's picks depend on what is
    /// in flight), from replications, or else √(p(1 − p)/copies), as if the copies' hosts were
    /// drawn independently (a burst; exact under a random balancer).
    public var faultyHostShareStandardError: Double {
        if let measured = measuredErrors?.faultyShare { return measured }
        let p = faultyHostShare
        return copies > 0 ? (p * (1 - p) / Double(copies)).squareRoot() : .nan
    }
    /// The workers' busy time per request, in seconds.
    public var workPerRequest: Double { requests > 0 ? work / Double(requests) : .nan }

    /// Whether the standard errors come from batches of requests in the order they ended (the
    /// method of batch means, `StreamingBatchRatio` and `BatchRatio`): where clients arrive over
    /// time, their copies queue behind each other's, and the requests' own spread understates the
    /// spread of the mean (3 busy replicas: 5 times for the mean response, 2.4 for the copies).
    /// Otherwise, and below 64 requests, the requests' own spread / √n.
    public private(set) var usesBatchMeans: Bool

    /// The standard error of ``copiesPerRequest``: the sample sd of the requests' copies / √n, or
    /// from batches (``usesBatchMeans``).
    public var copiesStandardError: Double {
        measuredErrors?.copies ?? Self.standardError(sum: Double(copies), squares: copySquares, requests)
    }
    /// The standard error of ``workPerRequest``, seconds.
    public var workStandardError: Double {
        measuredErrors?.work ?? Self.standardError(sum: work, squares: workSquares, requests)
    }
    /// The standard error of the mean response time (``responses``), seconds.
    public var meanResponseStandardError: Double { measuredErrors?.response ?? responses.standardError }

    /// The standard errors measured apart from this run (``StandardErrorMethod/replications(_:)``),
    /// or NaN ones (``StandardErrorMethod/unmeasured``), in place of its own.
    mutating func replaceStandardErrors(with errors: HedgeBatches.Errors) {
        measuredErrors = errors
        usesBatchMeans = false
    }

    /// The share of answered requests answered within `seconds` (the empirical CDF of the response time).
    public func fractionAnswered(within seconds: Double) -> Double {
        guard !sortedResponses.isEmpty else { return .nan }
        var (low, high) = (0, sortedResponses.count)
        while low < high {
            let middle = (low + high) / 2
            if sortedResponses[middle] <= seconds { low = middle + 1 } else { high = middle }
        }
        return Double(low) / Double(sortedResponses.count)
    }

    private static func standardError(sum: Double, squares: Double, _ n: Int) -> Double {
        guard n > 1 else { return .nan }
        let count = Double(n)
        let mean = sum / count
        return (max(0, (squares - count * mean * mean) / (count - 1)) / count).squareRoot()
    }
}
