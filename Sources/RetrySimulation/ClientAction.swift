import EventSimulation

/// What a simulated client does after one of its attempts is answered.
public enum ClientAction: Hashable, Sendable {
    /// Make the next attempt at this instant.
    case retry(at: VirtualTime)
    /// The request succeeded; the client is done.
    case succeed
    /// The request failed and the policy allows no more attempts; the client is done.
    case giveUp
}
