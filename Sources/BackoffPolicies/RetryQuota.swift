/// The AWS SDKs' retry quota ("standard" retry mode): a bucket of retry capacity shared by a client.
///
/// ```
/// capacity starts at 500
/// a retry costs 5 (10 after a timeout, 5 after a throttling error), and is refused when the
///   capacity left is smaller
/// a success of a first attempt returns 1 (up to 500)
/// a success of a retry refunds that retry's cost
/// ```
/// botocore's 2026 rules (``botocore2026``) charge 14 for a retry after any non-throttling error,
/// a timeout included, and 5 after a throttling error.
/// Properties, each tested: the capacity stays in [0, 500]; 100 retries in a row with no success
/// spend it all (50 after timeouts); a successful retry costs nothing in the end.
public struct RetryQuota: Hashable, Sendable {
    public let maximum: Int
    public let retryCost: Int
    public let timeoutRetryCost: Int
    /// The cost of a retry after a throttling error.
    public let throttlingRetryCost: Int
    public private(set) var capacity: Int

    /// The quota of the SDKs' standard retry mode as botocore 1.43 and the SDKs' specification
    /// have it: 500, 5 a retry, 10 after a timeout, 5 after a throttling error.
    public static let awsStandard = RetryQuota(
        validMaximum: 500, retryCost: 5, timeoutRetryCost: 10, throttlingRetryCost: 5)
    /// botocore 1.44's (the 2026 rules): 500, 14 after a transient error or a timeout, 5 after a
    /// throttling error (`RetryQuotaChecker._RETRY_COST`, `_THROTTLING_RETRY_COST`).
    public static let botocore2026 = RetryQuota(
        validMaximum: 500, retryCost: 14, timeoutRetryCost: 14, throttlingRetryCost: 5)

    /// A quota; `throttlingRetryCost` `nil` charges a retry after a throttling error `retryCost`.
    public init(maximum: Int, retryCost: Int, timeoutRetryCost: Int, throttlingRetryCost: Int? = nil)
        throws(BudgetError)
    {
        guard maximum > 0 else { throw .invalid("the retry quota must be greater than 0, got \(maximum)") }
        guard retryCost > 0, timeoutRetryCost > 0, (throttlingRetryCost ?? 1) > 0 else {
            throw .invalid("a retry must cost more than 0")
        }
        self.init(
            validMaximum: maximum, retryCost: retryCost, timeoutRetryCost: timeoutRetryCost,
            throttlingRetryCost: throttlingRetryCost ?? retryCost)
    }

    private init(validMaximum maximum: Int, retryCost: Int, timeoutRetryCost: Int, throttlingRetryCost: Int) {
        self.maximum = maximum
        self.retryCost = retryCost
        self.timeoutRetryCost = timeoutRetryCost
        self.throttlingRetryCost = throttlingRetryCost
        capacity = maximum
    }

    /// Takes the cost of a retry if the quota has it: the timeout cost after a timeout, else the
    /// cost of the failure's kind. - Returns: the cost taken, or `nil` (refused).
    public mutating func acquireRetry(afterTimeout: Bool, kind: FailureKind = .transient) -> Int? {
        let cost = afterTimeout ? timeoutRetryCost : kind == .throttling ? throttlingRetryCost : retryCost
        guard capacity >= cost else { return nil }
        capacity -= cost
        return cost
    }

    /// Records a success: a first attempt returns 1, a retry refunds what it cost (`retryCost`).
    public mutating func recordSuccess(retryCost cost: Int?) {
        capacity = min(maximum, capacity + (cost ?? 1))
    }
}
