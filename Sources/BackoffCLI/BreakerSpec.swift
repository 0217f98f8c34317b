import BackoffPolicies

/// `--breaker`: a circuit breaker, or `none` (see ``LimitSpec`` for the syntax).
enum BreakerSpec: ArgumentCodec {
    static let form =
        "none or on[:threshold=F][:min=N][:window=DURATION][:open=DURATION][:probes=N], e.g. on:threshold=0.5"

    /// A breaker, or `nil` for `none`.
    static func parse(_ text: String) throws(InvalidValue) -> CircuitBreaker? {
        let on = text.hasPrefix("on:") || text == "on"
        let parameters = try SpecParameters(text, keys: on ? ["threshold", "min", "window", "open", "probes"] : [])
        switch parameters.name {
        case "none" where parameters.isEmpty:
            return nil
        case "on":
            let threshold = try parameters.number("threshold", 0.5, in: 0...1, "a fraction of failures (0.5 is 50 %)")
            let minimum = try parameters.count("min", 20, in: 1...LimitSpec.countRange.upperBound)
            let window = try parameters.duration("window", .seconds(10))
            let open = try parameters.duration("open", .seconds(5))
            let probes = try parameters.count("probes", 3, in: 1...LimitSpec.countRange.upperBound)
            return try parameters.model { () throws(BudgetError) in
                try CircuitBreaker(
                    failureThreshold: threshold, minimumRequests: minimum, window: window, openDuration: open,
                    probes: probes)
            }
        default:
            throw InvalidValue(LimitSpec.unknownName(parameters.name, among: ["none", "on"]))
        }
    }

    /// A breaker as `--breaker` takes it: `parse(print(breaker))` is `breaker`.
    static func print(_ breaker: CircuitBreaker?) -> String {
        guard let breaker else { return "none" }
        return "on:threshold=\(CSVFormat.number(breaker.failureThreshold)):min=\(breaker.minimumRequests):window="
            + "\(breaker.window.unitText):open=\(breaker.openDuration.unitText):probes=\(breaker.probes)"
    }
}
