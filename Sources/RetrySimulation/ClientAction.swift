import EventSimulation

/// What a simulated client does after an answer; the driver carries it out.
public enum ClientAction: Hashable, Sendable {
    /// Make the next attempt of this request at this instant.
    case retry(at: VirtualTime)
    /// The request is over. `next` is when the session's next request starts (`nil`: the session
    /// is over); `unsent` counts the requests the session will now never send.
    case endRequest(RequestOutcome, next: VirtualTime?, unsent: Int)
}

/// How a request ended.
public enum RequestOutcome: Hashable, Sendable {
    case succeeded
    case permanentFailure
    /// The attempts or the time ran out.
    case gaveUp
    /// The retry budget refused the next retry.
    case deniedByBudget
    /// The client's breaker or throttle refused to send.
    case rejectedLocally
    /// The request's deadline passed while an attempt was in flight.
    case deadlineExceeded

    /// True when the request was lost: given up, out of time, or refused by a budget, a breaker or a
    /// throttle.
    public var isLost: Bool {
        switch self {
        case .succeeded, .permanentFailure: false
        case .gaveUp, .deniedByBudget, .rejectedLocally, .deadlineExceeded: true
        }
    }
}
