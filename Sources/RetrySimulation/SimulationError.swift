import EventSimulation

/// A scenario parameter outside its accepted range.
public enum SimulationError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidFailureProbability(Double)
    case negativeOutage(VirtualTime)
    case negativeRetryAfter
    case retryAfterNeedsRecovery
    case invalidNetworkDelay
    case invalidCapacity(String)
    case noClients(Int)
    case tooManyClients(Int)
    case noRuns(Int)
    case nonPositiveBucket(Int64)
    case invalidArrivals(String)
    case invalidPermanentFraction(Double)
    case noRequests(Int)
    case negativeThinkTime
    case nonPositiveTimeout
    case timeoutWithoutQueue
    case recoveryTriggerWithoutRecovery
    case permanentWithContention
    /// The load timeline would need more buckets than the limit (memory grows with buckets).
    case tooManyBuckets(needed: Double, limit: Int)

    public var description: String {
        switch self {
        case .invalidFailureProbability(let p): "the failure probability must lie in [0, 1], got \(p)"
        case .negativeOutage(let end): "the outage must end at or after 0, got \(end.seconds) s"
        case .negativeRetryAfter: "the Retry-After must not be negative"
        case .retryAfterNeedsRecovery: "Retry-After 'recovery' needs a server that recovers (an outage)"
        case .invalidNetworkDelay: "the network delay's mean and standard deviation must not be negative"
        case .invalidCapacity(let reason): reason
        case .noClients(let n): "at least 1 client is needed, got \(n)"
        case .tooManyClients(let n): "at most \(ScenarioEvent.maximumClients - 1) clients fit in one run, got \(n)"
        case .noRuns(let n): "at least 1 run is needed, got \(n)"
        case .nonPositiveBucket(let ns): "the bucket width must be greater than 0, got \(ns) ns"
        case .invalidArrivals(let reason): reason
        case .invalidPermanentFraction(let p): "the fraction of permanent failures must lie in [0, 1], got \(p)"
        case .noRequests(let n): "a client sends at least 1 request, got \(n)"
        case .negativeThinkTime: "the think time must not be negative"
        case .nonPositiveTimeout: "the attempt timeout must be greater than 0"
        case .timeoutWithoutQueue: "an attempt timeout needs a server where attempts wait (capacity)"
        case .recoveryTriggerWithoutRecovery:
            "the recovery trigger needs a server that recovers (an outage, or capacity with a degradation window)"
        case .permanentWithContention: "permanent failures do not apply to the contention model"
        case .tooManyBuckets(let needed, let limit):
            "the load timeline would need \(Int(needed)) buckets (limit \(limit)); use a wider bucket"
        }
    }
}
