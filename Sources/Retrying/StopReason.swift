/// Why a retry loop stopped without a result.
public enum StopReason: Sendable, Equatable {
    /// Every attempt of the policy's budget was made.
    case attemptsExhausted
    /// The next retry would start later than the policy's `maxElapsed` (also when the server's
    /// Retry-After is longer than the time left: the loop gives up at once instead of waiting).
    case timeLimit
    /// The shared retry budget refused the retry.
    case budgetExhausted
    /// The classifier called the error permanent.
    case permanentError
    /// The shared circuit breaker (open, or half-open with its probes out) or the adaptive throttle
    /// refused to send the attempt.
    case rejectedLocally
}
