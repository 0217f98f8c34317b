import BackoffPolicies
import EventSimulation

/// A modelled server that answers each attempt at once with success or failure.
///
/// ```
/// always-fail     every attempt fails
/// bernoulli:P     each attempt fails independently with probability P (0 <= P <= 1)
/// outage:T        every attempt before T fails; every attempt at or after T succeeds
/// ```
public enum ServerModel: Hashable, Sendable {
    case alwaysFail
    case bernoulli(failureProbability: Double)
    case outage(until: VirtualTime)

    /// Throws when a parameter is outside its range: P outside [0, 1], or T negative.
    public func validate() throws(SimulationError) {
        switch self {
        case .alwaysFail: return
        case .bernoulli(let p):
            guard (0...1).contains(p) else { throw .invalidFailureProbability(p) }
        case .outage(let end):
            guard end >= .zero else { throw .negativeOutage(end) }
        }
    }

    /// The answer to an attempt arriving at `time`. Draws one uniform for `bernoulli` only.
    @inlinable
    public func outcome<Random: UniformSource>(at time: VirtualTime, using random: inout Random) -> AttemptOutcome {
        switch self {
        case .alwaysFail:
            return .failure
        case .bernoulli(let p):
            return random.nextUniform() < p ? .failure : .success
        case .outage(let end):
            return time < end ? .failure : .success
        }
    }
}
