import BackoffPolicies
import Synchronization

/// An ``AdaptiveThrottle`` (the SRE book's client-side throttling) that many concurrent retry loops
/// share safely, on one time base: its clock (the retriers' clock type), measured from its creation.
/// Each attempt is rejected locally with probability max(0, (requests - k accepts) / (requests + 1))
/// over the trailing window; the defaults are `simulate --throttle adaptive`'s (k = 2, 120 s).
public final class SharedAdaptiveThrottle<C: Clock>: Sendable where C.Duration == Duration {
    private let throttle: Mutex<AdaptiveThrottle>
    public let clock: C
    private let origin: C.Instant

    public init(_ throttle: AdaptiveThrottle, clock: C) {
        self.throttle = Mutex(throttle)
        self.clock = clock
        origin = clock.now
    }

    /// The throttle as it is now (a copy).
    public var current: AdaptiveThrottle { throttle.withLock { $0 } }

    /// The time since the throttle's creation on its clock, in nanoseconds.
    public var elapsed: Nanoseconds { origin.duration(to: clock.now).wholeNanoseconds }

    /// Counts an attempt now and says whether it may be sent, with the uniform `u` in [0, 1).
    func admitsAttempt(_ u: Double) -> Bool {
        let now = elapsed
        return throttle.withLock { throttle in
            // The probability from the requests before this one (a fresh client rejects nothing),
            // then this request counts, sent or rejected.
            let admitted = u >= throttle.rejectionProbability(at: now)
            throttle.recordRequest(at: now)
            return admitted
        }
    }

    func recordAccept() {
        let now = elapsed
        throttle.withLock { $0.recordAccept(at: now) }
    }
}

extension SharedAdaptiveThrottle where C == ContinuousClock {
    /// A throttle on the continuous clock.
    public convenience init(_ throttle: AdaptiveThrottle) {
        self.init(throttle, clock: ContinuousClock())
    }
}
