import EventSimulation

/// A scenario parameter outside its accepted range.
public enum SimulationError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidFailureProbability(Double)
    case negativeOutage(VirtualTime)
    case noClients(Int)
    case noRuns(Int)
    case nonPositiveBucket(Int64)
    /// The load timeline would need more buckets than the limit (memory grows with buckets).
    case tooManyBuckets(needed: Double, limit: Int)

    public var description: String {
        switch self {
        case .invalidFailureProbability(let p): "the failure probability must lie in [0, 1], got \(p)"
        case .negativeOutage(let end): "the outage must end at or after 0, got \(end.seconds) s"
        case .noClients(let n): "at least 1 client is needed, got \(n)"
        case .noRuns(let n): "at least 1 run is needed, got \(n)"
        case .nonPositiveBucket(let ns): "the bucket width must be greater than 0, got \(ns) ns"
        case .tooManyBuckets(let needed, let limit):
            "the load timeline would need \(Int(needed)) buckets (limit \(limit)); use a wider bucket"
        }
    }
}
