/// An AWS adaptive rate limiter (``AdaptiveRateLimiter``) in front of every attempt: whose SDK it
/// models and who shares it.
public struct AdaptiveRateLimiting: Hashable, Sendable {
    public var sdk: RateLimiterSDK
    public var scope: RateLimiterScope

    public init(sdk: RateLimiterSDK = .botocore, scope: RateLimiterScope = .shared) {
        self.sdk = sdk
        self.scope = scope
    }
}
