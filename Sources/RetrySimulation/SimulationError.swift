import EventSimulation

/// A scenario parameter outside its accepted range.
public enum SimulationError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidFailureProbability(Double)
    case negativeOutage(VirtualTime)
    case negativeRetryAfter
    case retryAfterNeedsRecovery
    case invalidNetworkDelay
    // The capacity model's parameters.
    case noWorkers(Int)
    case invalidReplicas(Int)
    case negativeQueueLimit(Int)
    case invalidQueueDiscipline(QueueDiscipline)
    case invalidBalancer(Balancer)
    /// A ``FaultyHosts`` whose count is not 1 to the replicas, or whose fault is out of range.
    case invalidHostFault(count: Int, replicas: Int)
    case invalidRetryHostPredicate(RetryHostPredicate)
    case invalidOutlierDetection(OutlierDetection)
    /// A retry host predicate where layers retry: a layer's calls are not a client's requests.
    case retryHostPredicateWithLayers
    case nonPositiveServiceTime
    case invalidLognormalServiceTime
    case invalidMixture(String)
    case negativeRejectionRetryAfter
    case degradationEndsBeforeStart
    case invalidDegradedCapacity(Double)
    case invalidCapacityFactor(Double)
    case degradationAndCapacityTrace
    case noClients(Int)
    case tooManyClients(Int)
    case tooManyArrivals(expected: Double, limit: Int)
    /// A run's clock passed virtual time's horizon (`VirtualTime/horizon`, about 146 years).
    case beyondHorizon
    case noRuns(Int)
    case nonPositiveBucket(Duration)
    case nonPositiveArrivalWindow
    case invalidPoissonRate(Double)
    case nonPositiveArrivalDuration
    case negativeNotificationDelay
    case invalidPermanentFraction(Double)
    case noRequests(Int)
    case negativeThinkTime
    case nonPositiveTimeout
    case nonPositivePatience
    case patienceAndTimeout
    case patienceWithoutQueue
    case timeoutWithoutQueue
    case recoveryTriggerWithoutRecovery
    case permanentWithContention
    /// The load timeline would need more buckets than the limit (memory grows with buckets).
    case tooManyBuckets(needed: Double, limit: Int)
    case invalidTrace(String)
    case invalidRateLimit(Double)
    case invalidBurst(Int)
    case invalidLimitedShare(Double)
    // A stack of service layers (`ServiceLayer`) and the requests' deadline.
    case throttleInLayer(String)
    case nonPositiveLayerTimeout(String)
    case noLayerConcurrency(String, Int)
    /// A layer declares two settings of one kind (its name, the setting's key). Boxed: a payload of
    /// two strings would make every error wider than the four words a typed throw returns in
    /// registers, and the hot loops' throwing calls then pass an error buffer (4 % more instructions
    /// per herd attempt).
    indirect case repeatedLayerSetting(String, String)
    case tooManyLayers(Int)
    /// Replications outside 1 ... ``Scenario/maximumReplications``.
    case replicationsOutOfRange(Int)
    case nonPositiveDeadline
    case deadlineWithoutLayers
    case propagationWithoutDeadline
    case layersWithContention
    /// The clients' concurrency limit with the contention model, whose next attempt leaves with
    /// the answer to the last, past any limit.
    case concurrencyLimitWithContention
    // Hedged requests (`Hedging`).
    case hedgingNeedsCapacity
    case percentileHedgeWithLayers
    case percentileHedgeAboveBottomLayer(String)
    case layerHedgeNeedsCapacity(String)
    /// A stack held more calls in progress at once than an event can name.
    case tooManyCalls(limit: Int)

    public var description: String {
        switch self {
        case .invalidFailureProbability(let p): "the failure probability must lie in [0, 1], got \(p)"
        case .invalidTrace(let reason): reason
        case .invalidRateLimit(let rate): "the rate limit must be a number of requests per second > 0, got \(rate)"
        case .invalidBurst(let burst): "the burst must be at least 1 token, got \(burst)"
        case .invalidLimitedShare(let share): "the share of clients limited must lie in (0, 1], got \(share)"
        case .negativeOutage(let end): "the outage must end at or after 0, got \(end.seconds) s"
        case .negativeRetryAfter: "the Retry-After must not be negative"
        case .retryAfterNeedsRecovery: "Retry-After 'recovery' needs a server that recovers (an outage)"
        case .invalidNetworkDelay: "the network delay's mean and standard deviation must not be negative"
        case .noWorkers(let n): "at least 1 worker is needed, got \(n)"
        case .invalidReplicas(let n): "the replicas must number 1 to \(CapacityModel.maximumReplicas), got \(n)"
        case .hedgingNeedsCapacity:
            "hedging needs a server where copies take time and run side by side on replicas (capacity)"
        case .percentileHedgeWithLayers:
            "with layers (--layer) the clients hedge into the top layer with on:delay=DURATION or "
                + "on:per-try-timeout=DURATION; a percentile (Finagle's) reads a replica set's latencies: give it to "
                + "the bottom layer (hedge-percentile=Q)"
        case .layerHedgeNeedsCapacity(let name):
            "layer '\(name)': its hedge needs a server where copies take time and run side by side (capacity)"
        case .percentileHedgeAboveBottomLayer(let name):
            "layer '\(name)': a percentile hedge (hedge-percentile) sits at the bottom layer only; above it, "
                + "hedge with hedge-delay=DURATION or hedge-per-try-timeout=DURATION"
        case .negativeQueueLimit(let n): "the queue limit must not be negative, got \(n)"
        case .invalidBalancer: "a least-request balancer draws 1 to \(Balancer.mostChoices) choices"
        case .invalidHostFault(let count, let replicas) where !(1...max(1, replicas)).contains(count):
            "faulty hosts number 1 to the \(replicas) replicas, not \(count)"
        case .invalidOutlierDetection:
            "outlier detection takes 1 to \(OutlierDetection.mostFailures) consecutive failures, an interval and a base "
                + "ejection time above 0, and a percent from 0 to 100"
        case .invalidRetryHostPredicate:
            "a previous-hosts predicate picks again 0 to \(RetryHostPredicate.mostAttempts) times"
        case .retryHostPredicateWithLayers:
            "a retry host predicate applies to the clients' retries, not below --layer"
        case .invalidHostFault:
            "a faulty host takes a latency >= 0, a probability in [0, 1], a valid service time, or a window whose end "
                + "follows its start >= 0"
        case .invalidQueueDiscipline:
            "a queue discipline's target and interval must be greater than 0, within virtual time's horizon, and the "
                + "target no longer than the interval"
        case .nonPositiveServiceTime: "the service time must be greater than 0"
        case .invalidLognormalServiceTime: "the lognormal service time needs mean > 0 and sd >= 0"
        case .invalidMixture(let reason): reason
        case .negativeRejectionRetryAfter: "the Retry-After must not be negative"
        case .degradationEndsBeforeStart: "the degradation window must end after it starts"
        case .invalidDegradedCapacity(let f): "the degraded capacity must be a fraction in (0, 1], got \(f)"
        case .invalidCapacityFactor(let f): "a capacity factor must be a number greater than 0, got \(f)"
        case .degradationAndCapacityTrace: "a degradation window and a capacity trace both set the capacity; give one"
        case .noClients(let n): "at least 1 client is needed, got \(n)"
        case .tooManyClients(let n):
            "at most \(Scenario.maximumClients) clients fit in one run, or \(Scenario.maximumIndependentClients) in a "
                + "burst against always-fail, bernoulli, outage or trace with no shared limits (budget, breaker, throttle, "
                + "rate limiter) and no layers (those run client by client), got \(n)"
        case .tooManyArrivals(let expected, let limit):
            "the arrivals would bring about \(Self.whole(expected)) clients; at most \(limit) fit in one run"
                + (limit < Scenario.maximumIndependentClients
                    ? " (\(Scenario.maximumIndependentClients) against a capacity server, or always-fail, bernoulli, "
                        + "outage or trace with shared limits, with no layers, replicas or client-side rate limiter: "
                        + "their clients' memory is reused as their sessions end)" : "")
        case .beyondHorizon:
            "the run's clock passed virtual time's horizon (2^62 ns, about 146 years): its waits, server delays or service "
                + "times add up to more than that"
        case .noRuns(let n): "at least 1 run is needed, got \(n)"
        case .nonPositiveBucket(let width): "the bucket width must be greater than 0, got \(width)"
        case .nonPositiveArrivalWindow: "the arrival window must be greater than 0"
        case .invalidPoissonRate(let rate): "the Poisson rate must be greater than 0, got \(rate)"
        case .nonPositiveArrivalDuration: "a Poisson arrival process needs a duration greater than 0"
        case .negativeNotificationDelay: "the notification delay must not be negative"
        case .invalidPermanentFraction(let p): "the fraction of permanent failures must lie in [0, 1], got \(p)"
        case .noRequests(let n): "a client sends at least 1 request, got \(n)"
        case .negativeThinkTime: "the think time must not be negative"
        case .nonPositiveTimeout: "the attempt timeout must be greater than 0"
        case .timeoutWithoutQueue: "an attempt timeout needs a server where attempts wait (capacity, deadline)"
        case .nonPositivePatience: "the mean patience must be greater than 0"
        case .patienceAndTimeout: "an exponential patience replaces the fixed attempt timeout; give one of them"
        case .patienceWithoutQueue: "a patience needs a server where attempts wait (capacity)"
        case .recoveryTriggerWithoutRecovery:
            "the recovery trigger needs a server that recovers (an outage, a trace that ends at 0, or capacity with a degradation window)"
        case .permanentWithContention: "permanent failures do not apply to the contention model"
        case .throttleInLayer(let name):
            "layer '\(name)': a throttle or rate limiter is the clients' own (--throttle); a layer takes a budget and a breaker"
        case .nonPositiveLayerTimeout(let name): "layer '\(name)': the per-try timeout must be greater than 0"
        case .noLayerConcurrency(let name, let n):
            "layer '\(name)': the concurrency must be a whole number from 1 to \(ConcurrencyCap.largest), got \(n)"
        case .repeatedLayerSetting(let name, let key): "layer '\(name)': \(key) is set twice"
        case .tooManyLayers(let n): "at most \(Scenario.maximumLayers) layers fit in one stack, got \(n)"
        case .replicationsOutOfRange(let n):
            "replications must be a whole number from 1 to \(Scenario.maximumReplications), got \(n)"
        case .nonPositiveDeadline: "the deadline must be greater than 0"
        case .deadlineWithoutLayers:
            "a deadline needs a stack of layers (--layer); for one tier, --max-elapsed stops the retries and --timeout an attempt"
        case .propagationWithoutDeadline: "deadline propagation needs a deadline (--deadline)"
        case .concurrencyLimitWithContention:
            "the contention model's clients send their next read with the last answer; a concurrency limit cannot "
                + "hold them"
        case .layersWithContention:
            "the contention model's clients read and write the item themselves; it cannot sit below a layer"
        case .tooManyCalls(let limit):
            "the layers held more than \(limit) calls in progress at once (orphaned work piles up); use fewer clients, "
                + "attempts or longer timeouts"
        case .tooManyBuckets(let needed, let limit):
            "the load timeline would need \(Self.whole(needed)) buckets (limit \(limit)); use a wider bucket"
        }
    }

    /// `value` as a whole number, or in Swift's shortest form when it is beyond `Int64`.
    private static func whole(_ value: Double) -> String {
        Int64(exactly: value.rounded()).map(String.init) ?? "\(value)"
    }
}
