/// What happened at one attempt, for logging or counting (the loop's optional `onEvent` callback).
public enum RetryEvent: Sendable {
    /// Attempt `attempt` succeeded.
    case succeeded(attempt: Int)
    /// Attempt `attempt` failed with `error`; the next one starts after `wait`.
    case willRetry(attempt: Int, wait: Duration, error: any Error)
    /// Attempt `attempt` failed with `error`, and the loop stops for `reason`.
    case stopped(attempt: Int, reason: StopReason, error: any Error)
    /// The server's `Retry-After` value could not be read; the policy's backoff is used instead.
    case malformedRetryAfter(String)
}
