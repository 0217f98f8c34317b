/// Client-side adaptive throttling (Google SRE book, ch. 21, "Handling Overload"): the client counts
/// the requests it sends and those the backend accepts over a trailing window, and rejects a new
/// request locally with probability
/// ```
/// p = max(0, (requests - K accepts) / (requests + 1))
/// ```
/// K = 2 by default: the client lets through about twice what the backend accepts. Properties, each
/// tested: p lies in [0, 1); p is 0 while requests <= K accepts; with no accepts, p = requests/(requests+1).
public struct AdaptiveThrottle: Hashable, Sendable {
    public let k: Double
    /// The trailing window's length, kept as `slots` sub-intervals.
    public let window: Duration
    private var requests: SlidingCount
    private var accepts: SlidingCount

    public init(k: Double = 2, window: Duration = .seconds(120), slots: Int = 12) throws(BudgetError) {
        guard k.isFinite, k >= 1 else { throw .invalid("the throttle's K must be at least 1, got \(k)") }
        guard window > .zero else { throw .invalid("the throttle's window must be greater than 0") }
        self.k = k
        self.window = window
        requests = SlidingCount(window: window.wholeNanoseconds, slots: slots)
        accepts = SlidingCount(window: window.wholeNanoseconds, slots: slots)
    }

    /// The probability of rejecting a request at `now` (nanoseconds).
    public func rejectionProbability(at now: Nanoseconds) -> Double {
        let sent = Double(requests.total(at: now))
        let accepted = Double(accepts.total(at: now))
        return max(0, (sent - k * accepted) / (sent + 1))
    }

    /// Records a request the client sent at `now` (rejected locally ones included, as the SRE book does).
    public mutating func recordRequest(at now: Nanoseconds) { requests.add(at: now) }

    /// Records that the backend accepted a request at `now`.
    public mutating func recordAccept(at now: Nanoseconds) { accepts.add(at: now) }
}
