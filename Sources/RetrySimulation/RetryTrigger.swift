/// What makes a failed client try again.
public enum RetryTrigger: Hashable, Sendable {
    /// The policy's backoff timer (the usual case).
    case timer
    /// The server's recovery signal, as `retry(when:)` driven by connectivity does: a client that
    /// fails before the server recovers retries at the recovery instant plus a notification delay
    /// drawn uniformly from [0, notificationDelay). Failures after recovery use the timer.
    case recovery(notificationDelay: Duration)
}
