import BackoffPolicies

/// One service between the clients and the server (`simulate --layer`): it answers each request
/// from its caller by running it, under its own policy, against the layer below, the bottom
/// layer's attempts reaching the server model.
///
/// A layer's per-try `timeout` makes it stop waiting for an attempt (the work below goes on, as
/// orphaned work, unless a deadline cancels it). Its `settings` declare its behaviours (a
/// ``ConcurrencyCap``: it holds at most that many requests at once and refuses the others at once
/// with an error its caller may retry, as a thread pool does; see ``LayerBehaviours``). Its
/// `limits` hold a retry budget and a breaker of its own; a client-side throttle or rate limiter
/// is the clients' only. The bottom layer may hedge its attempts to the server's replicas
/// (`hedging`, as `--hedge` does for clients: `HedgedReplicas` below the stack), its budget granting
/// each copy after the first as a retry.
public struct ServiceLayer: Hashable, Sendable {
    public let name: String
    public let policy: BackoffPolicy
    public let limits: RetryLimits
    public let timeout: Duration?
    /// The layer's behaviours, as declared: at most one of each kind, in the order of
    /// ``LayerBehaviours/registered``.
    public let settings: [any LayerSetting]
    /// The layer's hedge of its attempts to the server's replicas; the bottom layer's only.
    public let hedging: Hedging?

    /// A layer; `concurrency` is a ``ConcurrencyCap``'s limit, added to `settings`.
    /// - Throws: ``SimulationError`` for a throttle or rate limiter in `limits`, a timeout not above
    ///   0, a concurrency outside 1 to ``ConcurrencyCap/largest``, or two settings of one kind.
    public init(
        name: String, policy: BackoffPolicy, limits: RetryLimits = RetryLimits(), timeout: Duration? = nil,
        concurrency: Int? = nil, settings: [any LayerSetting] = [], hedging: Hedging? = nil
    ) throws(SimulationError) {
        guard limits.throttle == nil && limits.rateLimiter == nil else { throw .throttleInLayer(name) }
        if let timeout { guard timeout > .zero else { throw .nonPositiveLayerTimeout(name) } }
        var settings = settings
        if let concurrency {
            guard let cap = ConcurrencyCap(limit: concurrency) else { throw .noLayerConcurrency(name, concurrency) }
            settings.append(cap)
        }
        let kinds = settings.map { ObjectIdentifier(type(of: $0)) }
        if let repeated = settings.first(where: { setting in
            kinds.filter { $0 == ObjectIdentifier(type(of: setting)) }.count > 1
        }) {
            throw .repeatedLayerSetting(name, type(of: repeated).key)
        }
        let order = LayerBehaviours.registered.map(ObjectIdentifier.init)
        self.name = name
        self.policy = policy
        self.limits = limits
        self.timeout = timeout
        self.settings = settings.sorted { setting, other in
            (order.firstIndex(of: ObjectIdentifier(type(of: setting))) ?? order.count)
                < (order.firstIndex(of: ObjectIdentifier(type(of: other))) ?? order.count)
        }
        self.hedging = hedging
    }

    /// The limit of the layer's ``ConcurrencyCap``; `nil` without one.
    public var concurrency: Int? { settings.lazy.compactMap { $0 as? ConcurrencyCap }.first?.limit }

    /// The per-try timeout in whole nanoseconds, `Int64.max` without one.
    var timeoutNanoseconds: Int64 { timeout?.wholeNanoseconds ?? .max }

    public static func == (lhs: ServiceLayer, rhs: ServiceLayer) -> Bool {
        (lhs.name, lhs.policy, lhs.limits, lhs.timeout, lhs.hedging) == (
            rhs.name, rhs.policy, rhs.limits, rhs.timeout, rhs.hedging
        )
            && lhs.settings.map { AnyHashable($0) } == rhs.settings.map { AnyHashable($0) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(policy)
        hasher.combine(limits)
        hasher.combine(timeout)
        hasher.combine(hedging)
        for setting in settings { hasher.combine(AnyHashable(setting)) }
    }
}
