/// What a failed attempt means for the retry loop, as the caller's classifier says.
public enum RetryClassification: Sendable, Equatable {
    /// Worth retrying after the policy's backoff (a timeout, a 503 without a hint).
    case transient
    /// Not worth retrying (a 404, a 401): the loop stops at once.
    case permanent
    /// Worth retrying; the server asked to wait this long (how it is used: `RetryAfterHandling`).
    case retryAfter(Duration)
    /// Worth retrying; the server sent this HTTP `Retry-After` header value (seconds or an HTTP
    /// date), parsed strictly by ``RetryAfterHeader``. A malformed value is ignored (the policy's
    /// backoff is used) and reported through the event callback.
    case retryAfterHeader(String)
}
