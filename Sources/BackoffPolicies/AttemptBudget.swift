/// How many attempts one request may make, given in either of the two conventions people use.
///
/// `maxAttempts(n)` counts every call, the first included (RxSwift's `retry(3)` makes 3 attempts);
/// `maxRetries(n)` counts only calls after the first (Combine's `retry(3)` makes 4 attempts).
/// Output always reports attempts.
public enum AttemptBudget: Hashable, Sendable {
    case maxAttempts(Int)
    case maxRetries(Int)

    /// The number of attempts n, first attempt included.
    public var attempts: Int {
        switch self {
        case .maxAttempts(let n): n
        case .maxRetries(let r): r + 1
        }
    }
}
