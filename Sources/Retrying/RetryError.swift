/// The error a retry loop throws when it stops without a result (cancellation throws
/// `CancellationError` instead, as Swift code expects): which limit ended it, the last underlying
/// error, and how many attempts were made.
public struct RetryError: Error, CustomStringConvertible {
    public let reason: StopReason
    public let lastError: any Error
    public let attempts: Int

    public init(reason: StopReason, lastError: any Error, attempts: Int) {
        self.reason = reason
        self.lastError = lastError
        self.attempts = attempts
    }

    public var description: String {
        "retries stopped (\(reason)) after \(attempts) attempt\(attempts == 1 ? "" : "s"); last error: \(lastError)"
    }
}
