import BackoffPolicies

/// An `AdaptiveThrottle` (the SRE book's client-side throttling) that many concurrent retry loops
/// share safely, on one time base: its clock (the retriers' clock type), measured from its creation.
/// Each attempt is rejected locally with probability max(0, (requests - k accepts) / (requests + 1))
/// over the trailing window; the defaults are `simulate --throttle adaptive`'s (k = 2, 120 s).
public final class SharedAdaptiveThrottle<C: Clock>: Sendable where C.Duration == Duration {
    private let throttle: ClockedMutex<AdaptiveThrottle, C>

    public init(_ throttle: AdaptiveThrottle, clock: C) {
        self.throttle = ClockedMutex(throttle, clock: clock)
    }

    /// The clock the throttle reads time from: the retriers' own.
    public var clock: C { throttle.clock }

    /// The throttle as it is now (a copy).
    public var current: AdaptiveThrottle { throttle.current }

    /// The time since the throttle's creation on its clock, in nanoseconds.
    public var elapsed: Nanoseconds { throttle.elapsed }

    /// Counts an attempt now and says whether it may be sent, with the uniform `u` in [0, 1).
    func admitsAttempt(_ u: Double) -> Bool {
        throttle.withLock { throttle, now in
            // The probability from the requests before this one (a fresh client rejects nothing),
            // then this request counts, sent or rejected.
            let admitted = u >= throttle.rejectionProbability(at: now)
            throttle.recordRequest(at: now)
            return admitted
        }
    }

    func recordAccept() {
        throttle.withLock { throttle, now in throttle.recordAccept(at: now) }
    }
}

extension SharedAdaptiveThrottle where C == ContinuousClock {
    /// A throttle on the continuous clock.
    public convenience init(_ throttle: AdaptiveThrottle) {
        self.init(throttle, clock: ContinuousClock())
    }
}
