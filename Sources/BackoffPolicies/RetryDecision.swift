/// The policy's answer after a failed attempt.
public enum RetryDecision: Hashable, Sendable {
    /// Retry after this many nanoseconds.
    case retry(after: Int64)
    /// Stop: the request fails for this reason.
    case giveUp(GiveUpReason)
}

/// Why a request stopped retrying.
public enum GiveUpReason: Hashable, Sendable {
    /// Every attempt of the budget was made.
    case attemptsExhausted
    /// The next retry would start later than `maxElapsed` after the first attempt (including a
    /// server delay longer than the time left: the client gives up at once instead of waiting).
    case timeLimit
}
