/// The parameter of a scenario that a ``SimulationError`` concerns, so a front end names what it
/// took the value from (an option, a spec's key) from its own declarations.
public enum ScenarioParameter: Hashable, Sendable, CaseIterable {
    case server, serverRetryAfter, networkDelay, workers, queue, queueDiscipline, balancer, hostFault,
        retryHostPredicate, outlierDetection, serviceTime,
        rejectionRetryAfter,
        degradationEnd
    case degradedCapacity, capacityProfile, clients, arrivals, arrivalDuration, retryTrigger, permanentFraction
    case requestsPerClient, thinkTime, timeout, patience, bucket, layers, deadline, replicas, hedge, replications
    case concurrencyLimit
}

extension SimulationError {
    /// The parameter whose value is refused (for a rule between two, the one it constrains).
    public var parameter: ScenarioParameter {
        switch self {
        case .invalidFailureProbability, .negativeOutage, .invalidTrace, .beyondHorizon, .invalidRateLimit,
            .invalidBurst, .invalidLimitedShare:
            .server
        case .negativeRetryAfter, .retryAfterNeedsRecovery: .serverRetryAfter
        case .invalidNetworkDelay: .networkDelay
        case .noWorkers: .workers
        case .invalidReplicas: .replicas
        case .hedgingNeedsCapacity, .percentileHedgeWithLayers: .hedge
        case .negativeQueueLimit: .queue
        case .invalidQueueDiscipline: .queueDiscipline
        case .invalidBalancer: .balancer
        case .invalidHostFault: .hostFault
        case .invalidRetryHostPredicate, .retryHostPredicateWithLayers: .retryHostPredicate
        case .invalidOutlierDetection: .outlierDetection
        case .nonPositiveServiceTime, .invalidLognormalServiceTime, .invalidMixture: .serviceTime
        case .negativeRejectionRetryAfter: .rejectionRetryAfter
        case .degradationEndsBeforeStart: .degradationEnd
        case .invalidDegradedCapacity: .degradedCapacity
        case .invalidCapacityFactor, .degradationAndCapacityTrace: .capacityProfile
        case .noClients, .tooManyClients, .noRuns: .clients
        case .tooManyArrivals, .nonPositiveArrivalWindow, .invalidPoissonRate: .arrivals
        case .nonPositiveArrivalDuration: .arrivalDuration
        case .negativeNotificationDelay, .recoveryTriggerWithoutRecovery: .retryTrigger
        case .invalidPermanentFraction, .permanentWithContention: .permanentFraction
        case .noRequests: .requestsPerClient
        case .negativeThinkTime: .thinkTime
        case .nonPositiveTimeout, .timeoutWithoutQueue: .timeout
        case .nonPositivePatience, .patienceAndTimeout, .patienceWithoutQueue: .patience
        case .nonPositiveBucket, .tooManyBuckets: .bucket
        case .throttleInLayer, .nonPositiveLayerTimeout, .noLayerConcurrency, .repeatedLayerSetting, .tooManyLayers,
            .layersWithContention,
            .tooManyCalls, .percentileHedgeAboveBottomLayer, .layerHedgeNeedsCapacity:
            .layers
        case .nonPositiveDeadline, .deadlineWithoutLayers, .propagationWithoutDeadline: .deadline
        case .replicationsOutOfRange: .replications
        case .concurrencyLimitWithContention: .concurrencyLimit
        }
    }

    /// True when the value lies outside its parameter's own range (a probability in [0, 1], a
    /// count of at least 1, a time greater than 0 or not negative), false for a rule between
    /// parameters, of the run (its size, its horizon) or of a file.
    public var isOutsideOwnRange: Bool {
        switch self {
        case .invalidTrace, .beyondHorizon, .retryAfterNeedsRecovery, .degradationEndsBeforeStart,
            .degradationAndCapacityTrace, .tooManyClients, .noRuns, .tooManyArrivals, .recoveryTriggerWithoutRecovery,
            .permanentWithContention, .timeoutWithoutQueue, .patienceAndTimeout, .patienceWithoutQueue, .tooManyBuckets,
            .invalidNetworkDelay,
            .invalidCapacityFactor, .throttleInLayer, .tooManyLayers, .deadlineWithoutLayers,
            .propagationWithoutDeadline, .layersWithContention, .tooManyCalls, .invalidMixture, .hedgingNeedsCapacity,
            .percentileHedgeWithLayers, .percentileHedgeAboveBottomLayer, .layerHedgeNeedsCapacity,
            .retryHostPredicateWithLayers,
            .concurrencyLimitWithContention:
            false
        default: true
        }
    }
}
