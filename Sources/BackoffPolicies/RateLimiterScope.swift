/// Who shares an AWS adaptive rate limiter (``AdaptiveRateLimiter``): every simulated client, as the
/// threads of one SDK client do (`shared`), or each client its own, as separate processes do
/// (`per-client`).
public enum RateLimiterScope: String, CaseIterable, Hashable, Sendable {
    case shared
    case perClient = "per-client"
}
