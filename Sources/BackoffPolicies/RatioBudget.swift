/// Finagle's retry budget (`RetryBudget(ttl, minRetriesPerSec, percentCanRetry)`): retries at most
/// a fraction of the requests of a trailing window, plus a small reserve per second (the SRE book
/// recommends 10 % per client).
///
/// ```
/// balance(now) = minRetriesPerSecond x ttl + percentCanRetry x requests(window) - retries(window)
/// a retry is allowed, and counted, when balance >= 1
/// ```
/// Properties, each tested: with no requests only the reserve allows retries; over a long run with
/// every attempt failing, retries stay within percentCanRetry x requests + reserve.
public struct RatioBudget: Hashable, Sendable {
    public let percentCanRetry: Double
    public let minRetriesPerSecond: Double
    /// The window (Finagle's ttl).
    public let window: Duration
    private var requests: SlidingCount
    private var retries: SlidingCount

    public init(
        percentCanRetry: Double, minRetriesPerSecond: Double = 10, window: Duration = .seconds(10), slots: Int = 10
    ) throws(BudgetError) {
        guard percentCanRetry.isFinite, (0...1).contains(percentCanRetry) else {
            throw .invalid("the retry ratio must lie in [0, 1], got \(percentCanRetry)")
        }
        guard minRetriesPerSecond.isFinite, minRetriesPerSecond >= 0 else {
            throw .invalid("the reserve must be at least 0 retries per second, got \(minRetriesPerSecond)")
        }
        guard window > .zero else { throw .invalid("the budget's window must be greater than 0") }
        self.percentCanRetry = percentCanRetry
        self.minRetriesPerSecond = minRetriesPerSecond
        self.window = window
        requests = SlidingCount(window: window.wholeNanoseconds, slots: slots)
        retries = SlidingCount(window: window.wholeNanoseconds, slots: slots)
    }

    /// Records a request (a first attempt) at `now`.
    public mutating func recordRequest(at now: Nanoseconds) { requests.add(at: now) }

    /// The retries still allowed at `now`.
    public func balance(at now: Nanoseconds) -> Double {
        minRetriesPerSecond * Double(requests.window) / 1e9 + percentCanRetry * Double(requests.total(at: now))
            - Double(retries.total(at: now))
    }

    /// Takes a retry from the budget if it allows one. - Returns: whether the retry may be sent.
    public mutating func acquireRetry(at now: Nanoseconds) -> Bool {
        guard balance(at: now) >= 1 else { return false }
        retries.add(at: now)
        return true
    }
}
