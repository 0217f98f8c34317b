import BackoffPolicies

/// The AWS SDKs' client-side rate limiter (adaptive retry mode, `AdaptiveRateLimiter` in BackoffPolicies) that many
/// concurrent retry loops share safely, as the threads of one SDK client share botocore's: its
/// clock (the retriers' clock type), measured from its creation, is the limiter's.
///
/// Before each attempt a retrier looks for a token and, finding none, sleeps on its clock until the
/// bucket should hold one, then looks again (`simulate --throttle aws-adaptive` models the same
/// object). The answers its SDK feeds reach the limiter (`RateLimiterSDK.feeds`; botocore's: every
/// answer): an error that `isThrottling` recognises as a throttle, anything else (a success,
/// another error) as a success, as botocore counts them.
public final class SharedRateLimiter<C: Clock>: Sendable where C.Duration == Duration {
    private let limiter: ClockedMutex<AdaptiveRateLimiter, C>
    /// Whether an error is a throttling error (HTTP 429, `Throttling`, `SlowDown`, ...).
    let isThrottling: @Sendable (any Error) -> Bool
    /// Whose limiter this is.
    public let sdk: RateLimiterSDK

    public init(clock: C, sdk: RateLimiterSDK = .botocore, isThrottling: @escaping @Sendable (any Error) -> Bool) {
        limiter = ClockedMutex(AdaptiveRateLimiter(createdAt: 0, sdk: sdk), clock: clock)
        self.isThrottling = isThrottling
        self.sdk = sdk
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

    /// The request succeeded now.
    func recordSuccess() { record(success: true, throttled: false, retried: false) }

    /// An attempt failed now with `error`, and the loop `retried` after it or not.
    func record(error: any Error, retried: Bool) {
        record(success: false, throttled: isThrottling(error), retried: retried)
    }

    private func record(success: Bool, throttled: Bool, retried: Bool) {
        guard sdk.feeds(success: success, throttled: throttled, retried: retried) else { return }
        limiter.withLock { limiter, now in limiter.recordResponse(throttled: throttled, at: Double(now) / 1e9) }
    }
}

extension SharedRateLimiter where C == ContinuousClock {
    /// A limiter on the continuous clock.
    public convenience init(
        sdk: RateLimiterSDK = .botocore, isThrottling: @escaping @Sendable (any Error) -> Bool
    ) {
        self.init(clock: ContinuousClock(), sdk: sdk, isThrottling: isThrottling)
    }
}
