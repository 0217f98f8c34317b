import BackoffPolicies

/// One service between the clients and the server (`simulate --layer`): it answers each request
/// from its caller by running it, under its own policy, against the layer below, the bottom
/// layer's attempts reaching the server model.
///
/// A layer's per-try `timeout` makes it stop waiting for an attempt (the work below goes on, as
/// orphaned work, unless a deadline cancels it); with `concurrency` it holds at most that many
/// requests at once and refuses the others at once with an error its caller may retry (a thread
/// pool). Its `limits` hold a retry budget and a breaker of its own; a client-side throttle or rate
/// limiter is the clients' only. The bottom layer may hedge its attempts to the server's replicas
/// (`hedging`, as `--hedge` does for clients: `HedgedReplicas` below the stack), its budget granting
/// each copy after the first as a retry.
public struct ServiceLayer: Hashable, Sendable {
    public let name: String
    public let policy: BackoffPolicy
    public let limits: RetryLimits
    public let timeout: Duration?
    public let concurrency: Int?
    /// The layer's hedge of its attempts to the server's replicas; the bottom layer's only.
    public let hedging: Hedging?

    public init(
        name: String, policy: BackoffPolicy, limits: RetryLimits = RetryLimits(), timeout: Duration? = nil,
        concurrency: Int? = nil, hedging: Hedging? = nil
    ) throws(SimulationError) {
        guard limits.throttle == nil && limits.rateLimiter == nil else { throw .throttleInLayer(name) }
        if let timeout { guard timeout > .zero else { throw .nonPositiveLayerTimeout(name) } }
        if let concurrency { guard concurrency >= 1 else { throw .noLayerConcurrency(name, concurrency) } }
        self.name = name
        self.policy = policy
        self.limits = limits
        self.timeout = timeout
        self.concurrency = concurrency
        self.hedging = hedging
    }

    /// The per-try timeout in whole nanoseconds, `Int64.max` without one.
    var timeoutNanoseconds: Int64 { timeout?.wholeNanoseconds ?? .max }
}
