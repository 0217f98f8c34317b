/// A delay the server sends with a failure, telling the client when to come back.
public enum RetryAfter: Hashable, Sendable {
    /// Always the same delay, in nanoseconds.
    case fixed(Duration)
    /// The time left until the server recovers (the end of an outage).
    case untilRecovery
}
