import BackoffPolicies

/// What `--throttle` puts in front of the clients' attempts: the SRE book's adaptive throttling,
/// which refuses attempts locally, or the AWS SDKs' adaptive rate limiter, which delays them.
enum Throttle: Hashable, Sendable {
    case sre(AdaptiveThrottle)
    case awsAdaptive(AdaptiveRateLimiting)
}
