/// What a client does with a server-provided delay (an HTTP `Retry-After`, a throttle's hint).
public enum RetryAfterHandling: String, CaseIterable, Hashable, Sendable {
    /// Wait the policy's backoff; the server's delay is ignored.
    case ignore
    /// Wait the server's delay instead of the backoff (the backoff when the server sends none).
    case honor
    /// Wait the longer of the two.
    case max
}
