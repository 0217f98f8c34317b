/// The AWS SDKs' retry quota ("standard" retry mode): a bucket of retry capacity shared by a client.
///
/// ```
/// capacity starts at 500
/// a retry costs 5 (10 after a timeout), and is refused when the capacity left is smaller
/// a success of a first attempt returns 1 (up to 500)
/// a success of a retry refunds that retry's cost
/// ```
/// Properties, each tested: the capacity stays in [0, 500]; 100 retries in a row with no success
/// spend it all (50 after timeouts); a successful retry costs nothing in the end.
public struct RetryQuota: Hashable, Sendable {
    public let maximum: Int
    public let retryCost: Int
    public let timeoutRetryCost: Int
    public private(set) var capacity: Int

    public static let awsStandard = RetryQuota(validMaximum: 500, retryCost: 5, timeoutRetryCost: 10)

    public init(maximum: Int, retryCost: Int, timeoutRetryCost: Int) throws(BudgetError) {
        guard maximum > 0 else { throw .invalid("the retry quota must be greater than 0, got \(maximum)") }
        guard retryCost > 0, timeoutRetryCost > 0 else { throw .invalid("a retry must cost more than 0") }
        self.init(validMaximum: maximum, retryCost: retryCost, timeoutRetryCost: timeoutRetryCost)
    }

    private init(validMaximum maximum: Int, retryCost: Int, timeoutRetryCost: Int) {
        self.maximum = maximum
        self.retryCost = retryCost
        self.timeoutRetryCost = timeoutRetryCost
        capacity = maximum
    }

    /// Takes the cost of a retry if the quota has it. - Returns: the cost taken, or `nil` (refused).
    public mutating func acquireRetry(afterTimeout: Bool) -> Int? {
        let cost = afterTimeout ? timeoutRetryCost : retryCost
        guard capacity >= cost else { return nil }
        capacity -= cost
        return cost
    }

    /// Records a success: a first attempt returns 1, a retry refunds what it cost (`retryCost`).
    public mutating func recordSuccess(retryCost cost: Int?) {
        capacity = min(maximum, capacity + (cost ?? 1))
    }
}
