/// Envoy's retry budget: the retries in flight may not exceed a fraction of the active requests,
/// with a floor.
///
/// ```
/// a retry is allowed when activeRetries < max(budgetPercent x activeRequests, minRetryConcurrency)
/// ```
/// Envoy's defaults are 20 % and 3. Properties, each tested: with no active requests the floor
/// still allows retries; the limit grows linearly with the active requests.
public struct ConcurrencyBudget: Hashable, Sendable {
    public let budgetPercent: Double
    public let minRetryConcurrency: Int

    public static let envoyDefault = ConcurrencyBudget(validPercent: 0.2, minRetryConcurrency: 3)

    public init(budgetPercent: Double, minRetryConcurrency: Int) throws(BudgetError) {
        guard budgetPercent.isFinite, (0...1).contains(budgetPercent) else {
            throw .invalid("the concurrency budget's fraction must lie in [0, 1], got \(budgetPercent)")
        }
        guard minRetryConcurrency >= 0 else { throw .invalid("the minimum retry concurrency must be at least 0") }
        self.init(validPercent: budgetPercent, minRetryConcurrency: minRetryConcurrency)
    }

    private init(validPercent budgetPercent: Double, minRetryConcurrency: Int) {
        self.budgetPercent = budgetPercent
        self.minRetryConcurrency = minRetryConcurrency
    }

    /// Whether one more retry may start, given the requests and retries in flight (retries included
    /// in `activeRequests`).
    public func allowsRetry(activeRequests: Int, activeRetries: Int) -> Bool {
        Double(activeRetries) < max(budgetPercent * Double(activeRequests), Double(minRetryConcurrency))
    }
}
