/// A circuit breaker: it opens when the failure rate over a trailing window passes a threshold,
/// rejects requests locally while open, and after a delay half-opens to let a few probes through.
///
/// ```
/// closed:    requests pass; opens when, in the window, requests >= minimumRequests and
///            failures / requests >= failureThreshold
/// open:      every request is rejected locally, until openDuration has passed
/// half-open: up to `probes` requests pass; if they all succeed the breaker closes (counts reset),
///            a failure opens it again
/// ```
/// (The classic Hystrix/resilience4j design.) Properties, each tested: a closed breaker passes every
/// request; an open one none; a half-open one at most `probes` until they are answered.
public struct CircuitBreaker: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        case closed
        case open(until: Nanoseconds)
        case halfOpen(sent: Int, succeeded: Int)
    }

    public let failureThreshold: Double
    public let minimumRequests: Int
    public let openDuration: Duration
    /// How far back the failure rate looks.
    public var window: Duration { .nanoseconds(requests.window) }
    private let openNanoseconds: Nanoseconds
    public let probes: Int
    public private(set) var state: State = .closed
    private var requests: SlidingCount
    private var failures: SlidingCount

    public init(
        failureThreshold: Double = 0.5, minimumRequests: Int = 20, window: Duration = .seconds(10),
        openDuration: Duration = .seconds(5), probes: Int = 3
    ) throws(BudgetError) {
        guard failureThreshold > 0, failureThreshold <= 1 else {
            throw .invalid("the breaker's failure threshold must lie in (0, 1], got \(failureThreshold)")
        }
        guard minimumRequests >= 1 else { throw .invalid("the breaker needs at least 1 request to open") }
        guard window > .zero, openDuration > .zero else {
            throw .invalid("the breaker's window and open duration must be greater than 0")
        }
        guard probes >= 1 else { throw .invalid("the breaker needs at least 1 probe when half-open") }
        self.failureThreshold = failureThreshold
        self.minimumRequests = minimumRequests
        self.openDuration = openDuration
        openNanoseconds = openDuration.wholeNanoseconds
        self.probes = probes
        requests = SlidingCount(window: window.wholeNanoseconds, slots: 10)
        failures = SlidingCount(window: window.wholeNanoseconds, slots: 10)
    }

    /// Whether a request may be sent at `now`; counts it as a probe when half-open.
    public mutating func allowsRequest(at now: Nanoseconds) -> Bool {
        switch state {
        case .closed:
            return true
        case .open(let until):
            guard now >= until else { return false }
            state = .halfOpen(sent: 1, succeeded: 0)
            return true
        case .halfOpen(let sent, let succeeded):
            guard sent < probes else { return false }
            state = .halfOpen(sent: sent + 1, succeeded: succeeded)
            return true
        }
    }

    /// Records the outcome of a request that was let through.
    public mutating func record(success: Bool, at now: Nanoseconds) {
        switch state {
        case .closed:
            requests.add(at: now)
            if !success { failures.add(at: now) }
            let total = requests.total(at: now)
            if total >= minimumRequests && Double(failures.total(at: now)) >= failureThreshold * Double(total) {
                state = .open(until: now + openNanoseconds)
            }
        case .open:
            return
        case .halfOpen(let sent, let succeeded):
            guard success else {
                state = .open(until: now + openNanoseconds)
                return
            }
            if succeeded + 1 >= probes {
                state = .closed
                requests = SlidingCount(window: requests.window, slots: 10)
                failures = SlidingCount(window: failures.window, slots: 10)
            } else {
                state = .halfOpen(sent: sent, succeeded: succeeded + 1)
            }
        }
    }
}
