import BackoffPolicies
import Synchronization

/// A ``CircuitBreaker`` that many concurrent retry loops share safely, on one time base: its clock
/// (the retriers' clock type), measured from its creation. The defaults are `simulate --breaker on`'s:
/// it opens when half of at least 20 requests in 10 s failed, rejects locally for 5 s, then lets 3
/// probes through and closes when they all succeed.
public final class SharedCircuitBreaker<C: Clock>: Sendable where C.Duration == Duration {
    private let breaker: Mutex<CircuitBreaker>
    public let clock: C
    private let origin: C.Instant

    public init(_ breaker: CircuitBreaker, clock: C) {
        self.breaker = Mutex(breaker)
        self.clock = clock
        origin = clock.now
    }

    /// The breaker as it is now (a copy).
    public var current: CircuitBreaker { breaker.withLock { $0 } }

    /// The time since the breaker's creation on its clock, in nanoseconds.
    public var elapsed: Nanoseconds { origin.duration(to: clock.now).wholeNanoseconds }

    /// Whether an attempt may be sent now (a half-open breaker counts it as a probe).
    func allowsAttempt() -> Bool {
        let now = elapsed
        return breaker.withLock { $0.allowsRequest(at: now) }
    }

    func record(success: Bool) {
        let now = elapsed
        breaker.withLock { $0.record(success: success, at: now) }
    }
}

extension SharedCircuitBreaker where C == ContinuousClock {
    /// A breaker on the continuous clock, with `simulate --breaker on`'s defaults unless given.
    public convenience init(_ breaker: CircuitBreaker) {
        self.init(breaker, clock: ContinuousClock())
    }
}
