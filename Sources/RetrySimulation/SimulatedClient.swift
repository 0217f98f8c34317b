import BackoffPolicies
import EventSimulation

/// One client's request as a state machine: it follows a ``BackoffPolicy`` and answers each event
/// with a ``ClientAction`` that the driver (the scenario's event loop) carries out. It holds no
/// reference to the policy or the engine, so it can be tested as a timeline without either, and
/// millions fit in one contiguous array.
public struct SimulatedClient: Hashable, Sendable {
    /// Attempts made and waits taken so far.
    public var backoff: BackoffState { _backoff }
    @usableFromInline var _backoff: BackoffState
    /// When the first attempt started.
    public let firstAttempt: VirtualTime

    /// A client whose first attempt starts at `firstAttempt`.
    public init(policy: BackoffPolicy, firstAttempt: VirtualTime = .zero) {
        _backoff = BackoffState(policy: policy)
        self.firstAttempt = firstAttempt
    }

    /// True when the attempt being answered is a retry (not the first attempt).
    @inlinable public var isRetrying: Bool { _backoff.attempts > 1 }

    /// The current attempt was answered with `outcome` at `now`.
    /// - Returns: `.succeed`, `.giveUp`, or `.retry(at:)` with the instant of the next attempt.
    @inlinable
    public mutating func attemptAnswered<Random: UniformSource>(
        _ outcome: AttemptOutcome, at now: VirtualTime, policy: BackoffPolicy, using random: inout Random
    ) -> ClientAction {
        if outcome == .success { return .succeed }
        let elapsed = now.nanoseconds - firstAttempt.nanoseconds
        guard let wait = policy.nextWait(after: &_backoff, elapsed: elapsed, using: &random) else { return .giveUp }
        return .retry(at: now + wait)
    }
}
