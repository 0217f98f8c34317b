import RetrySimulation

/// `--retry-host-predicate`: how the clients' retries pick their replica beyond the balancer (see
/// ``LimitSpec`` for the `name:key=value` syntax).
enum RetryHostPredicateSpec: ArgumentCodec {
    static let form =
        "previous-hosts[:attempts=N] with N from 0 to \(RetryHostPredicate.mostAttempts) (Envoy's "
        + "host_selection_retry_max_attempts, default \(RetryHostPredicate.defaultAttempts)), e.g. "
        + "previous-hosts:attempts=2"

    static let names = ["previous-hosts"]

    static func parse(_ text: String) throws(InvalidValue) -> RetryHostPredicate {
        let name = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
        let parameters = try SpecParameters(text, keys: name == "previous-hosts" ? ["attempts"] : [])
        switch parameters.name {
        case "previous-hosts":
            return .previousHosts(
                attempts: try parameters.count(
                    "attempts", RetryHostPredicate.defaultAttempts, in: 0...RetryHostPredicate.mostAttempts))
        default:
            throw InvalidValue(LimitSpec.unknownName(parameters.name, among: names))
        }
    }

    /// A predicate as `--retry-host-predicate` takes it: `parse(print(predicate))` is `predicate`.
    static func print(_ predicate: RetryHostPredicate) -> String {
        switch predicate {
        case .previousHosts(let attempts): "previous-hosts:attempts=\(attempts)"
        }
    }
}
