import BackoffPolicies
import EventSimulation

/// A retry scenario: clients that follow one policy against a modelled server. Validated on
/// construction; run it with ``run(seed:arrivalSeed:algorithm:requestLog:jobs:progress:)``.
///
/// Each client runs a session of `requestsPerClient` requests in sequence, `thinkTime` apart. A
/// request's attempts follow the policy; a fraction `permanentFraction` of requests meet a permanent
/// error (a 404 or 401) at their first attempt, which the retry predicate does not retry. Failures
/// may carry a server delay, handled as `retryAfter` says, and a client may wait for the server's
/// recovery signal instead of its timer (`retryTrigger`).
public struct Scenario: Sendable {
    public let clients: Int
    public let server: ServerModel
    public let policy: BackoffPolicy
    /// The load timeline's bucket width.
    public let bucketWidth: Duration
    public let arrivals: Arrivals
    public let permanentFraction: Double
    public let retryAfter: RetryAfterHandling
    public let retryTrigger: RetryTrigger
    public let requestsPerClient: Int
    /// The pause between a request's end and the next request of the session.
    public let thinkTime: Duration
    public let onGiveUp: GiveUpBehavior
    /// The client's per-attempt timeout (capacity servers only).
    public let attemptTimeout: Duration?
    /// The mean of an exponential per-attempt timeout, drawn anew for each attempt from the
    /// client's stream (capacity servers only, instead of ``attemptTimeout``): Erlang-A's patience,
    /// for which a server that drops expired work has exact shares (``ErlangAQueue``).
    public let patience: Duration?
    /// Retry budget, breaker and throttle, shared by all clients.
    public let limits: RetryLimits
    /// The kind of the server's failures (timeouts aside): what a retry after one costs the AWS
    /// quota. The CLI also picks a preset's policy for it. A server that decides it (a rate
    /// limiter's are throttling errors) overrides the kind given.
    public let failureKind: FailureKind
    /// The services between the clients and the server, top to bottom (empty: the clients call the
    /// server), each retrying under its own policy (see ``ServiceLayer``).
    public let layers: [ServiceLayer]
    /// Each request's overall deadline: when it passes with an attempt in flight, the request ends
    /// (`deadline_exceeded`), and no retry starts later than it. Needs layers.
    public let deadline: Duration?
    /// With a deadline, whether every sub-request carries it (gRPC's deadline propagation): a
    /// layer then starts no retry at or after it, and the work below is cancelled when it passes
    /// (or when the per-try timeout of the attempt it serves does). Without it, a layer knows only
    /// its own timeouts.
    public let propagatesDeadline: Bool
    /// The clients' hedge: copies of each attempt sent `delay` apart to distinct replicas of a
    /// capacity server, the first success winning (see `Hedging` (BackoffPolicies)). `nil`: one copy.
    public let hedging: Hedging?
    /// How many times a run runs the scenario (``replicated(_:)``; 1 by default): the report is the
    /// first run's, its standard errors the spread of every run's means (``StandardErrorMethod/replications(_:)``).
    public internal(set) var replications = 1
    /// Whether a replica set's run counts each host's load (``countingHostLoads()``).
    public internal(set) var countsHostLoads = false
    /// The bucket width and the timeout in whole nanoseconds, as the run reads them.
    let bucketNanoseconds: Nanoseconds
    let timeoutNanoseconds: Nanoseconds?
    /// The patience's mean in nanoseconds.
    let patienceNanoseconds: Double?

    /// The most buckets a timeline may hold (4 counters of 8 bytes... each).
    public static let maximumBuckets = 50_000_000

    /// The most clients one run holds (an event names its client in 28 bits), except for a burst
    /// of clients that do not interact and a run whose clients' slots are reused (see
    /// ``maximumIndependentClients``).
    public static let maximumClients = ScenarioEvent.maximumClients - 1

    /// The most clients of a burst that do not interact (``runsClientByClient``): they run one
    /// after the other, keeping nothing per client, so memory does not grow with their number.
    /// Also the most Poisson arrivals of a run that reuses its clients' slots (``recyclesClients``),
    /// which holds the sessions in flight.
    public static let maximumIndependentClients = 1 << 40

    /// The most requests whose total waits a run keeps one by one (8 bytes each), for exact
    /// quantiles; beyond, they are streamed into exact sums and a quantile sketch (within 0.1 %,
    /// relatively), in constant memory.
    public static let exactQuantileLimit = 1 << 24

    /// The most layers one stack holds.
    public static let maximumLayers = 16

    public init(
        clients: Int, server: ServerModel, policy: BackoffPolicy, bucketWidth: Duration,
        arrivals: Arrivals = .burst, permanentFraction: Double = 0, retryAfter: RetryAfterHandling = .ignore,
        retryTrigger: RetryTrigger = .timer, requestsPerClient: Int = 1, thinkTime: Duration = .zero,
        onGiveUp: GiveUpBehavior = .endSession, attemptTimeout: Duration? = nil, limits: RetryLimits = RetryLimits(),
        failureKind: FailureKind = .transient, layers: [ServiceLayer] = [], deadline: Duration? = nil,
        propagatesDeadline: Bool = false, hedging: Hedging? = nil, patience: Duration? = nil
    ) throws(SimulationError) {
        guard bucketWidth > .zero else { throw .nonPositiveBucket(bucketWidth) }
        try server.validate()
        switch arrivals {
        case .burst, .uniform:
            guard clients >= 1 else { throw .noClients(clients) }
            guard clients <= Self.maximumIndependentClients else { throw .tooManyClients(clients) }
            if case .uniform(let window) = arrivals, window <= .zero {
                throw .nonPositiveArrivalWindow
            }
        case .poisson(let rate, let duration):
            guard rate > 0, rate.isFinite else { throw .invalidPoissonRate(rate) }
            guard duration > .zero else { throw .nonPositiveArrivalDuration }
        }
        guard (0...1).contains(permanentFraction) else { throw .invalidPermanentFraction(permanentFraction) }
        if permanentFraction > 0, case .contention = server { throw .permanentWithContention }
        guard requestsPerClient >= 1 else { throw .noRequests(requestsPerClient) }
        guard thinkTime >= .zero else { throw .negativeThinkTime }
        if let attemptTimeout {
            guard attemptTimeout > .zero else { throw .nonPositiveTimeout }
            guard server.takesTimeouts else { throw .timeoutWithoutQueue }
        }
        if let patience {
            guard patience > .zero else { throw .nonPositivePatience }
            guard case .capacity = server else { throw .patienceWithoutQueue }
            guard attemptTimeout == nil else { throw .patienceAndTimeout }
        }
        guard layers.count <= Self.maximumLayers else { throw .tooManyLayers(layers.count) }
        if !layers.isEmpty, case .contention = server { throw .layersWithContention }
        if limits.concurrencyLimit != nil, case .contention = server { throw .concurrencyLimitWithContention }
        if !layers.isEmpty, case .capacity(let model) = server, model.retryHostPredicate != nil {
            throw .retryHostPredicateWithLayers
        }
        if let deadline {
            guard deadline > .zero else { throw .nonPositiveDeadline }
            guard !layers.isEmpty else { throw .deadlineWithoutLayers }
        }
        if propagatesDeadline && deadline == nil { throw .propagationWithoutDeadline }
        if let hedging {
            if layers.isEmpty {
                guard case .capacity = server else { throw .hedgingNeedsCapacity }
            } else if hedging.rule.percentile != nil {
                throw .percentileHedgeWithLayers
            }
        }
        if let above = layers.dropLast().first(where: { $0.hedging?.rule.percentile != nil }) {
            throw .percentileHedgeAboveBottomLayer(above.name)
        }
        if let bottom = layers.last, bottom.hedging != nil {
            guard case .capacity = server else { throw .layerHedgeNeedsCapacity(bottom.name) }
        }
        if case .recovery(let delay) = retryTrigger {
            guard server.recoveryTime != nil else { throw .recoveryTriggerWithoutRecovery }
            guard delay >= .zero else { throw .negativeNotificationDelay }
        }
        if server.answersAtOnce, case .burst = arrivals, requestsPerClient == 1 {
            // Every attempt starts at t = 0 plus a total wait, so the timeline ends by the longest one.
            let buckets = policy.totalWaitRange.upperBound * 1e9 / Double(bucketWidth.wholeNanoseconds) + 1
            guard buckets <= Double(Self.maximumBuckets) else {
                throw .tooManyBuckets(needed: buckets, limit: Self.maximumBuckets)
            }
        }
        self.clients = clients
        self.server = server
        self.policy = policy
        self.bucketWidth = bucketWidth
        bucketNanoseconds = bucketWidth.wholeNanoseconds
        timeoutNanoseconds = attemptTimeout?.wholeNanoseconds
        patienceNanoseconds = patience.map { Double($0.wholeNanoseconds) }
        self.patience = patience
        self.arrivals = arrivals
        self.permanentFraction = permanentFraction
        self.retryAfter = retryAfter
        self.retryTrigger = retryTrigger
        self.requestsPerClient = requestsPerClient
        self.thinkTime = thinkTime
        self.onGiveUp = onGiveUp
        self.attemptTimeout = attemptTimeout
        self.limits = limits
        self.failureKind = server.failureKind ?? failureKind
        self.layers = layers
        self.deadline = deadline
        self.propagatesDeadline = propagatesDeadline
        self.hedging = hedging
        if clients > Self.maximumClients {
            guard case .burst = arrivals, runsClientByClient else { throw .tooManyClients(clients) }
        }
        if case .poisson(let rate, let duration) = arrivals {
            // Beyond this the run would refuse the arrivals anyway, after drawing them.
            let expected = rate * Double(duration.wholeNanoseconds) / 1e9
            let limit = recyclesClients ? Self.maximumIndependentClients : Self.maximumClients
            guard expected <= Double(limit) else { throw .tooManyArrivals(expected: expected, limit: limit) }
        }
    }

    /// True when the clients do not interact, so each session can run from start to end before the
    /// next: a server that answers at once (always-fail, bernoulli, outage, trace), no limits or layers.
    public var runsClientByClient: Bool { server.answersAtOnce && limits.isEmpty && layers.isEmpty }

    /// Whether an event-ordered run gives a session's slot (its client state, stream and limits'
    /// counters) to a new session once it has ended and the server holds none of its attempts, so
    /// that memory follows the sessions in flight, not the run's length: a capacity server, or one
    /// that answers at once and keeps nothing of a client (always-fail, bernoulli, outage, trace)
    /// when shared limits make its clients interact; without layers or replicas, and limits without
    /// a client-side rate limiter (whose per-client limiters live as long as the run). Such a run's
    /// open arrivals may number up to ``maximumIndependentClients``.
    public var recyclesClients: Bool {
        guard layers.isEmpty, !runsReplicaSet, limits.rateLimiter == nil else { return false }
        switch server {
        case .capacity: return true
        // Without shared limits these run client by client, with no slots at all.
        case .alwaysFail, .bernoulli, .outage, .trace: return !runsClientByClient
        // Contention keeps each client's read.
        case .contention: return false
        case .component(let component): return component.base.reusesSlots
        }
    }

    /// Whether a run's standard errors come from batches of sessions in arrival order
    /// (``StandardErrorMethod/batchMeans``): the clients interact (not ``runsClientByClient``) and
    /// arrive over time, so a stretch of the run is a batch.
    public var usesBatchMeans: Bool {
        if case .burst = arrivals { return false }
        return !runsClientByClient
    }

    /// The clients' policy as they follow it: with a deadline, they start no retry after it.
    var clientPolicy: BackoffPolicy { deadline.map { policy.endingBy($0) } ?? policy }

    /// What the clients consult when an answer arrives.
    public var behaviour: ClientBehaviour {
        ClientBehaviour(
            retryAfter: retryAfter, retryTrigger: retryTrigger, recoveryTime: server.recoveryTime,
            thinkTime: thinkTime, onGiveUp: onGiveUp)
    }

    /// The end of the failure that sets off the retries: the outage's end, or the degradation
    /// window's. `nil` for servers without one.
    public var triggerEnd: VirtualTime? { server.recoveryTime }

    /// The expected number of first attempts per bucket in steady state: the arrival rate times
    /// the bucket width (Poisson), N w / window while uniform arrivals last, 0 after a burst.
    public var steadyFirstAttemptsPerBucket: Double {
        switch arrivals {
        case .burst: 0
        case .uniform: 0  // arrivals have ended by the time the backlog drains
        case .poisson(let rate, _): rate * Double(bucketNanoseconds) / 1e9 * Double(requestsPerClient)
        }
    }

    /// True for the plain herd: a server that answers at once, no shared limit, one request per
    /// client that meets no permanent error and retries on its timer, with no server delay in play.
    /// Such a run needs no session state machine (``ScenarioPath``), and from a burst it has closed
    /// forms (``closedForm``).
    var isPlainHerd: Bool {
        server.answersAtOnce && limits.isEmpty && layers.isEmpty && requestsPerClient == 1 && permanentFraction == 0
            && retryTrigger == .timer && (retryAfter == .ignore || !server.sendsRetryAfter)
    }

    /// The plain herd of a burst: all clients fail at once at t = 0, where closed forms exist.
    var isPlainBurst: Bool { isPlainHerd && arrivals == .burst }
}
