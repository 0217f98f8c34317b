/// What reached a client about its attempt in flight.
public enum ClientAnswer: Hashable, Sendable {
    case success
    /// A failure (or a rejection), with the server's delay if it sent one.
    case failure(serverDelay: Int64?)
    /// A permanent error (404, 401): the retry predicate does not retry it.
    case permanentError
    /// The client stopped waiting.
    case timeout
    /// The client's own circuit breaker or throttle refused to send the attempt: the request fails
    /// at once, without retries.
    case rejectedLocally
    /// The request's deadline passed while the attempt was in flight (`--deadline`): the request
    /// ends, without retries.
    case deadlineExceeded
}
