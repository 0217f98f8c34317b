/// How a retry's host is chosen among a capacity server's replicas, beyond the balancer
/// (`simulate --retry-host-predicate`): Envoy's `retry_host_predicate`.
///
/// Envoy issue 2259 (open since 2017): retries go back to the host that just failed. Under a
/// random balancer a retry of a request that has tried a distinct hosts of n lands on one of them
/// with probability a/n, whatever they did to it.
public enum RetryHostPredicate: Hashable, Sendable {
    /// Envoy's `previous_hosts` predicate with `host_selection_retry_max_attempts` = `attempts`:
    /// while the host the balancer picks for a retry is one the request tried already, the
    /// balancer picks again, up to `attempts` times; the last pick stands. Under a random balancer
    /// a retry then lands on a tried host with probability (a/n)^(attempts + 1). `attempts` 0
    /// picks once, as without the predicate, and measures how often retries go back.
    case previousHosts(attempts: Int)

    /// Envoy's default `host_selection_retry_max_attempts`: one more pick.
    public static let defaultAttempts = 1
    /// The most picks a predicate may add.
    public static let mostAttempts = 100

    public var isValid: Bool {
        switch self {
        case .previousHosts(let attempts): (0...Self.mostAttempts).contains(attempts)
        }
    }

    /// The probability that a retry lands on a host its request tried already, when it tried
    /// `tried` distinct hosts of `hosts` and the balancer is random: each pick is uniform and
    /// independent, so all `attempts` + 1 picks land on tried hosts with (a/n)^(attempts + 1).
    public func probabilityOfTriedHost(tried: Int, of hosts: Int) -> Double {
        switch self {
        case .previousHosts(let attempts):
            var probability = 1.0
            let share = Double(tried) / Double(hosts)
            for _ in 0...attempts { probability *= share }
            return probability
        }
    }
}
