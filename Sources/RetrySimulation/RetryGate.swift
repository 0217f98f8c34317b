import BackoffPolicies

/// What a scenario's clients consult beyond their policy, shared by all of them: nothing
/// (``NoLimits``) or the ``RetryLimits`` of the scenario (``LimitsInForce``).
///
/// The scenario driver is generic over its gate, so a run without a budget, breaker or throttle is
/// compiled with ``NoLimits``, whose every method is empty: it pays no check per attempt.
protocol RetryGate {
    /// A gate for `clients` clients; only called with limits the gate can hold.
    init(limits: RetryLimits, clients: Int, failureKind: FailureKind)

    /// A request's first attempt starts at `time` (nanoseconds).
    mutating func requestStarted(at time: Int64)

    /// Whether an attempt may leave at `time`: the throttle (one uniform drawn from `uniform`, when
    /// there is a throttle) and the breaker decide.
    mutating func admitsAttempt<Random: UniformSource>(at time: Int64, using uniform: inout Random) -> Bool

    /// The server answered `client`'s attempt (or it timed out) at `time`; `wasRetry` when the attempt was a retry.
    mutating func recordAnswer(success: Bool, client: Int, wasRetry: Bool, at time: Int64)

    /// Whether the budget grants `client` a retry at `time`, after a timeout or a failure.
    mutating func grantsRetry(client: Int, afterTimeout: Bool, at time: Int64) -> Bool

    /// `client` will retry: the retry the budget just granted (and its cost) is now in flight.
    mutating func retryScheduled(client: Int)

    /// `client`'s request ended (whatever its outcome).
    mutating func requestEnded(client: Int)
}
