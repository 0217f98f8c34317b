import RetrySimulation

/// `--balancer`: how the capacity server's replicas share the copies sent to them (see
/// ``LimitSpec`` for the `name:key=value` syntax).
enum BalancerSpec: ArgumentCodec {
    static let form =
        "random, round-robin, least-request[:choices=N|all] or p2c (least-request:choices=2), e.g. "
        + "least-request:choices=2"

    static let names = ["random", "round-robin", "least-request", "p2c"]

    static func parse(_ text: String) throws(InvalidValue) -> Balancer {
        let name = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
        let parameters = try SpecParameters(text, keys: name == "least-request" ? ["choices"] : [])
        switch parameters.name {
        case "random": return .random
        case "round-robin": return .roundRobin
        case "p2c": return .leastRequest(choices: 2)
        case "least-request":
            if parameters[given: "choices"] == "all" { return .leastRequest(choices: nil) }
            do {
                return .leastRequest(
                    choices: try parameters.count("choices", Balancer.defaultChoices, in: 1...Balancer.mostChoices))
            } catch {
                throw InvalidValue((error.detail ?? "choices takes a whole number") + ", or all (every replica)")
            }
        default:
            throw InvalidValue(LimitSpec.unknownName(parameters.name, among: names))
        }
    }

    /// A balancer as `--balancer` takes it: `parse(print(balancer))` is `balancer`.
    static func print(_ balancer: Balancer) -> String {
        switch balancer {
        case .random: "random"
        case .roundRobin: "round-robin"
        case .leastRequest(let choices?): "least-request:choices=\(choices)"
        case .leastRequest(nil): "least-request:choices=all"
        }
    }
}
