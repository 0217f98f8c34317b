import EventSimulation

/// A server with a fixed number of workers in front of a bounded queue, FIFO unless its
/// ``queueDiscipline`` says otherwise.
///
/// An attempt that finds a free worker is served at once; one that finds every worker busy waits
/// in the queue; one that finds the queue full is rejected at once (a throttle, optionally with a
/// Retry-After). A served attempt whose client has already timed out is still served: that is
/// wasted work, unless the server `dropsExpired`: it then checks, when a worker would start a queued
/// attempt, whether its caller still waits (the deadline the request carries, gRPC's guidance),
/// and drops the work unserved if not (the M/M/c+D queue, deterministic patience). During the optional degradation window, a service that starts in [start, end)
/// takes its time divided by `fraction` (capacity drops to that fraction), the trigger of an overload.
/// A capacity profile (an incident's trace) generalises the window to a step function: a service
/// takes its time divided by the factor in force when it starts.
///
/// With `replicas` above 1 the server is that many such servers (each with its own workers and
/// queue) behind a ``Balancer`` (uniform random by default); a hedged request's copies go to distinct replicas
/// (see `Hedging` (BackoffPolicies)). Some of them may misbehave (``FaultyHosts``).
public struct CapacityModel: Hashable, Sendable {
    /// Workers of each replica.
    public let workers: Int
    /// Replicas, each with `workers` workers and a queue of `queueLimit`.
    public let replicas: Int
    public let serviceTime: ServiceTime
    /// The most attempts that may wait for a worker (at each replica).
    public let queueLimit: Int
    /// Whether a worker drops a queued attempt whose caller has stopped waiting (its timeout, a
    /// layer's per-try timeout, or a hedge's answered request) instead of serving it.
    public let dropsExpired: Bool
    /// The order in which a free worker takes queued attempts, and those it sheds (FIFO by default).
    public let queueDiscipline: QueueDiscipline
    /// How the replicas share the copies sent to them (random by default).
    public let balancer: Balancer
    /// The replicas that misbehave, if any (the first `count` of them).
    public let faultyHosts: FaultyHosts?
    /// How a client's retry picks its replica beyond the balancer (Envoy's previous-hosts
    /// predicate), if at all.
    public let retryHostPredicate: RetryHostPredicate?
    /// Envoy's outlier detection, which ejects a host that keeps failing, if any.
    public let outlierDetection: OutlierDetection?
    /// The delay sent with a rejection, if any.
    public let rejectionRetryAfter: Duration?
    public let degradation: Degradation?
    /// Capacity over time, as factors of the full capacity (at most one of this and `degradation`).
    public let capacityProfile: StepFunction<Double>?

    public init(
        workers: Int, serviceTime: ServiceTime, queueLimit: Int, rejectionRetryAfter: Duration? = nil,
        degradation: Degradation? = nil, capacityProfile: StepFunction<Double>? = nil, replicas: Int = 1,
        dropsExpired: Bool = false, queueDiscipline: QueueDiscipline = .fifo, balancer: Balancer = .random,
        faultyHosts: FaultyHosts? = nil, retryHostPredicate: RetryHostPredicate? = nil,
        outlierDetection: OutlierDetection? = nil
    ) {
        self.outlierDetection = outlierDetection
        self.retryHostPredicate = retryHostPredicate
        self.workers = workers
        self.balancer = balancer
        self.faultyHosts = faultyHosts
        self.queueDiscipline = queueDiscipline
        self.dropsExpired = dropsExpired
        self.replicas = replicas
        self.serviceTime = serviceTime
        self.queueLimit = queueLimit
        self.rejectionRetryAfter = rejectionRetryAfter
        self.degradation = degradation
        self.capacityProfile = capacityProfile
    }

    /// The most replicas one server holds.
    public static let maximumReplicas = 10_000

    /// When capacity first drops below full: the trigger of the overload.
    public var triggerStart: VirtualTime? {
        degradation?.start ?? capacityProfile?.steps.first { $0.value < 1 }?.start
    }

    /// When capacity is full again for good after the drop; `nil` without a drop or a return.
    public var recoveryTime: VirtualTime? {
        if let degradation { return degradation.end }
        guard let profile = capacityProfile, triggerStart != nil else { return nil }
        return profile.settles { $0 >= 1 }
    }

    /// A capacity drop: services starting in [start, end) take their time divided by `fraction`.
    public struct Degradation: Hashable, Sendable {
        public let start: VirtualTime
        public let end: VirtualTime
        public let fraction: Double

        public init(start: VirtualTime, end: VirtualTime, fraction: Double) {
            self.start = start
            self.end = end
            self.fraction = fraction
        }
    }
}
