/// The answer of ``BackoffPolicy/maxAttempts(expectedTotalWaitAtMost:)``.
public enum AttemptsWithinBudget: Hashable, Sendable {
    /// At most this many attempts keep the expected total wait within the budget.
    case attempts(Int)
    /// Any number does: the waits are all zero.
    case any
    /// No closed form gives the expected total wait.
    case unknown
}
