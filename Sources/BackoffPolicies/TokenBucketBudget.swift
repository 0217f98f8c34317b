/// gRPC's retry throttling (gRFC A6, "Client Retries"): a token bucket shared by a client's calls.
///
/// ```
/// tokens start at maxTokens
/// each failed attempt:      tokens = max(0, tokens - 1)
/// each successful attempt:  tokens = min(maxTokens, tokens + tokenRatio)
/// a retry is allowed while  tokens > maxTokens / 2
/// ```
/// In a steady state where a fraction f of attempts fail, the tokens drift by -f + (1 - f) r per
/// attempt, so they settle above the threshold (retries continue) only when f < r / (1 + r): 9.09 %
/// for gRPC's default ratio 0.1. Properties, each tested: the tokens stay in [0, maxTokens]; a fresh
/// bucket allows retries; failures alone stop retries after ⌊maxTokens/2⌋ + 1 failures at most.
public struct TokenBucketBudget: Hashable, Sendable {
    public let maxTokens: Double
    public let tokenRatio: Double
    public private(set) var tokens: Double

    /// gRPC's defaults are set per service; these are the values of its documentation's example.
    public static let grpcExample = TokenBucketBudget(validMaxTokens: 10, tokenRatio: 0.1)

    public init(maxTokens: Double, tokenRatio: Double) throws(BudgetError) {
        guard maxTokens.isFinite, maxTokens > 0 else {
            throw .invalid("the token bucket's max must be greater than 0, got \(maxTokens)")
        }
        guard tokenRatio.isFinite, tokenRatio > 0, tokenRatio <= maxTokens else {
            throw .invalid("the token ratio must lie in (0, max], got \(tokenRatio)")
        }
        self.init(validMaxTokens: maxTokens, tokenRatio: tokenRatio)
    }

    private init(validMaxTokens maxTokens: Double, tokenRatio: Double) {
        self.maxTokens = maxTokens
        self.tokenRatio = tokenRatio
        tokens = maxTokens
    }

    /// True while a retry may be sent.
    public var allowsRetry: Bool { tokens > maxTokens / 2 }

    /// Records an attempt's outcome.
    public mutating func record(success: Bool) {
        tokens = success ? min(maxTokens, tokens + tokenRatio) : max(0, tokens - 1)
    }

    /// The failure fraction above which a steady state stops retrying: r / (1 + r).
    public var failureFractionThreshold: Double { tokenRatio / (1 + tokenRatio) }
}
