/// How a capacity server's replicas share the copies sent to them (`simulate --balancer`), as a
/// client-side balancer or a proxy in front of them picks a host; one balancer for all clients.
/// A hedge's copies of one attempt go to distinct replicas whatever the rule.
public enum Balancer: Hashable, Sendable {
    /// A replica drawn uniformly: each replica of K receives a Poisson stream of rate λ/K.
    case random
    /// The replicas in turn (Envoy's `ROUND_ROBIN`): each receives every K-th copy, so under
    /// Poisson arrivals its arrivals are Erlang-K spaced and a replica is an E_K/M/c queue.
    case roundRobin
    /// Envoy's `LEAST_REQUEST`: `choices` replicas drawn uniformly (with replacement), the one with
    /// the fewest copies in flight from this balancer taken (the first drawn on a tie): the power of
    /// d choices, p2c for 2. `nil` choices scan every replica (join the shortest queue; a tie goes
    /// to the first from a uniformly drawn start).
    case leastRequest(choices: Int?)

    /// Envoy's default choice count.
    public static let defaultChoices = 2
    /// The most choices a rule may draw.
    public static let mostChoices = 1_000

    /// The choices are from 1 to ``mostChoices``.
    public var isValid: Bool {
        if case .leastRequest(let choices?) = self { return (1...Self.mostChoices).contains(choices) }
        return true
    }
}
