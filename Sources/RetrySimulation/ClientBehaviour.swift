import BackoffPolicies
import EventSimulation

/// How simulated clients react to failures and chain their requests; the part of a ``Scenario``
/// that a ``SimulatedClient`` consults.
public struct ClientBehaviour: Hashable, Sendable {
    public var retryAfter: RetryAfterHandling
    public var retryTrigger: RetryTrigger
    /// When the server recovers (for the recovery trigger).
    public var recoveryTime: VirtualTime?
    public var thinkTime: Int64
    public var onGiveUp: GiveUpBehavior

    public init(
        retryAfter: RetryAfterHandling = .ignore, retryTrigger: RetryTrigger = .timer, recoveryTime: VirtualTime? = nil,
        thinkTime: Int64 = 0, onGiveUp: GiveUpBehavior = .endSession
    ) {
        self.retryAfter = retryAfter
        self.retryTrigger = retryTrigger
        self.recoveryTime = recoveryTime
        self.thinkTime = thinkTime
        self.onGiveUp = onGiveUp
    }
}
