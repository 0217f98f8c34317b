import BackoffPolicies

/// A `CircuitBreaker` that many concurrent retry loops share safely, on one time base: its clock
/// (the retriers' clock type), measured from its creation. The defaults are `simulate --breaker on`'s:
/// it opens when half of at least 20 requests in 10 s failed, rejects locally for 5 s, then lets 3
/// probes through and closes when they all succeed.
public final class SharedCircuitBreaker<C: Clock>: Sendable where C.Duration == Duration {
    private let breaker: ClockedMutex<CircuitBreaker, C>

    public init(_ breaker: CircuitBreaker, clock: C) {
        self.breaker = ClockedMutex(breaker, clock: clock)
    }

    /// The clock the breaker reads time from: the retriers' own.
    public var clock: C { breaker.clock }

    /// The breaker as it is now (a copy).
    public var current: CircuitBreaker { breaker.current }

    /// The time since the breaker's creation on its clock, in nanoseconds.
    public var elapsed: Nanoseconds { breaker.elapsed }

    /// Whether an attempt may be sent now (a half-open breaker counts it as a probe).
    func allowsAttempt() -> Bool {
        breaker.withLock { breaker, now in breaker.allowsRequest(at: now) }
    }

    func record(success: Bool) {
        breaker.withLock { breaker, now in breaker.record(success: success, at: now) }
    }
}

extension SharedCircuitBreaker where C == ContinuousClock {
    /// A breaker on the continuous clock, with `simulate --breaker on`'s defaults unless given.
    public convenience init(_ breaker: CircuitBreaker) {
        self.init(breaker, clock: ContinuousClock())
    }
}
