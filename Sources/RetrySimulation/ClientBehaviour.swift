import BackoffPolicies
import EventSimulation

/// How simulated clients react to failures and chain their requests; the part of a ``Scenario``
/// that a ``SimulatedClient`` consults.
public struct ClientBehaviour: Hashable, Sendable {
    public var retryAfter: RetryAfterHandling
    public var retryTrigger: RetryTrigger
    /// When the server recovers (for the recovery trigger).
    public var recoveryTime: VirtualTime?
    /// The pause between the end of a request and the next one of the session.
    public var thinkTime: Duration {
        get { .nanoseconds(_thinkTime) }
        set { _thinkTime = newValue.wholeNanoseconds }
    }
    /// The think time in whole nanoseconds, read at every request's end.
    var _thinkTime: Nanoseconds
    public var onGiveUp: GiveUpBehavior

    public init(
        retryAfter: RetryAfterHandling = .ignore, retryTrigger: RetryTrigger = .timer, recoveryTime: VirtualTime? = nil,
        thinkTime: Duration = .zero, onGiveUp: GiveUpBehavior = .endSession
    ) {
        self.retryAfter = retryAfter
        self.retryTrigger = retryTrigger
        self.recoveryTime = recoveryTime
        _thinkTime = thinkTime.wholeNanoseconds
        self.onGiveUp = onGiveUp
    }
}
