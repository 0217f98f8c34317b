import BackoffPolicies

/// The AWS SDKs' client-side rate limiter (adaptive retry mode, `AdaptiveRateLimiter` in BackoffPolicies) that many
/// concurrent retry loops share safely, as the threads of one SDK client share botocore's: its
/// clock (the retriers' clock type), measured from its creation, is the limiter's.
///
/// Before each attempt a retrier looks for a token and, finding none, sleeps on its clock until the
/// bucket should hold one, then looks again (`simulate --throttle aws-adaptive` models the same
/// object). Every answer feeds the limiter: an error that `isThrottling` recognises as a throttle,
/// anything else (a success, another error) as a success, as botocore counts them.
public final class SharedRateLimiter<C: Clock>: Sendable where C.Duration == Duration {
    private let limiter: ClockedMutex<AdaptiveRateLimiter, C>
    /// Whether an error is a throttling error (HTTP 429, `Throttling`, `SlowDown`, ...).
    let isThrottling: @Sendable (any Error) -> Bool

    public init(clock: C, isThrottling: @escaping @Sendable (any Error) -> Bool) {
        limiter = ClockedMutex(AdaptiveRateLimiter(createdAt: 0), clock: clock)
        self.isThrottling = isThrottling
    }

    /// The clock the limiter reads time from: the retriers' own.
    public var clock: C { limiter.clock }

    /// The limiter as it is now (a copy).
    public var current: AdaptiveRateLimiter { limiter.current }

    /// One look for a token now: zero when one was taken (or the limiter is not on), else how long
    /// to sleep before looking again (rounded up to whole nanoseconds).
    func tryAcquire() -> Duration {
        let wait = limiter.withLock { limiter, now in limiter.tryAcquire(at: Double(now) / 1e9) }
        return wait > 0 ? .nanoseconds(max(1, Int64((wait * 1e9).rounded(.up)))) : .zero
    }

    /// An answer came now: a throttling error, or anything else.
    func record(throttled: Bool) {
        limiter.withLock { limiter, now in limiter.recordResponse(throttled: throttled, at: Double(now) / 1e9) }
    }
}

extension SharedRateLimiter where C == ContinuousClock {
    /// A limiter on the continuous clock.
    public convenience init(isThrottling: @escaping @Sendable (any Error) -> Bool) {
        self.init(clock: ContinuousClock(), isThrottling: isThrottling)
    }
}
