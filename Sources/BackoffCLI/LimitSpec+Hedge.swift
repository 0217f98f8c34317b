import BackoffPolicies

/// `--hedge`: its parser and its printer (see ``LimitSpec``).
extension LimitSpec {
    /// A hedge, or `nil` for `none`: copies of each attempt `delay` apart, `max-attempts` in all
    /// (2 unless given), the first success cancelling the others unless `cancel=no`; or, with
    /// `percentile=Q` instead of `delay`, Finagle's one backup at the Q-th percentile of recent latencies.
    static func parseHedge(_ text: String) throws(InvalidValue) -> Hedging? {
        let name = String(text.prefix { $0 != ":" })
        guard name == "none" || name == "on" else { throw InvalidValue(unknownName(name, among: ["none", "on"])) }
        let parameters = try SpecParameters(
            text,
            keys: name == "on"
                ? [
                    "delay", "percentile", "per-try-timeout", "backoff-base", "backoff-max", "max-attempts", "cancel",
                    "cancel-delay",
                ] : [])
        switch parameters.name {
        case "none" where parameters.isEmpty:
            return nil
        case "on":
            let cancel = try parameters.choice(
                "cancel", "yes", among: ["yes", "no"], "yes (the first success cancels the other copies) or no")
            let cancellationDelay = try parameters.nonNegativeDuration(
                "cancel-delay", .zero, "how long a cancellation takes to reach the server")
            if cancel == "no", let given = parameters[given: "cancel-delay"] {
                throw InvalidValue(
                    "'cancel-delay=\(given.quotedInMessage)': cancel-delay needs cancel=yes (without cancellation the "
                        + "losers run to their end)")
            }
            let rules = ["delay", "percentile", "per-try-timeout"].filter { parameters[given: $0] != nil }
            if rules.count > 1 {
                throw InvalidValue(
                    "'\(rules[1])=\(parameters[given: rules[1]]!.quotedInMessage)': give one of delay, percentile "
                        + "(Finagle's) and per-try-timeout (Envoy's), not \(rules[0]) and \(rules[1])")
            }
            for key in ["backoff-base", "backoff-max"] where rules.first != "per-try-timeout" {
                if let given = parameters[given: key] {
                    throw InvalidValue(
                        "'\(key)=\(given.quotedInMessage)': \(key) is the backoff before a per-try timeout's "
                            + "hedge, and needs per-try-timeout=DURATION")
                }
            }
            if parameters[given: "per-try-timeout"] != nil {
                let timeout = try parameters.duration("per-try-timeout", .seconds(1))
                let copies = try parameters.count("max-attempts", 2, in: 1...Hedging.maximumCopies)
                let base = try parameters.duration("backoff-base", .milliseconds(25))
                // Without backoff-max, the hedge implies it (10 x the base) and says so in its errors.
                let maximum: Duration? =
                    parameters[given: "backoff-max"] == nil ? nil : try parameters.duration("backoff-max", base * 10)
                do {
                    return try Hedging(
                        perTryTimeout: timeout, copies: copies, backoffBase: base, backoffMax: maximum,
                        cancelsLosers: cancel == "yes", cancellationDelay: cancellationDelay)
                } catch {
                    let key = maximum == nil ? "backoff-base" : "backoff-max"
                    throw InvalidValue("'\(key)=\(parameters[given: key] ?? "")': \(error)")
                }
            }
            if parameters[given: "percentile"] != nil {
                if let delay = parameters[given: "delay"] {
                    throw InvalidValue(
                        "'delay=\(delay.quotedInMessage)': give delay or percentile, not both (percentile is Finagle's "
                            + "delay, the percentile of recent latencies)")
                }
                let copies = try parameters.count("max-attempts", 2, in: 1...Hedging.maximumCopies)
                guard copies == 2 else {
                    throw InvalidValue(
                        "'max-attempts=\(copies)': with percentile a hedge sends one backup, as Finagle does "
                            + "(max-attempts=2, the default)")
                }
                let what =
                    "a fraction above 0 and at most 1 (1 - Finagle's maxExtraLoad: 0.99 sends backups at the p99)"
                let percentile = try parameters.number("percentile", 0.99, in: 0...1, what)
                guard percentile > 0 else {
                    throw InvalidValue("'percentile=\(parameters[given: "percentile"]!)': percentile takes \(what)")
                }
                do {
                    return try Hedging(
                        percentile: percentile, cancelsLosers: cancel == "yes", cancellationDelay: cancellationDelay)
                } catch {
                    throw InvalidValue("\(error)")
                }
            }
            let delay = try parameters.requiredDuration(
                "delay", "when each next copy goes, or percentile=Q or per-try-timeout=T")
            let copies = try parameters.count("max-attempts", 2, in: 1...Hedging.maximumCopies)
            do {
                return try Hedging(
                    delay: delay, copies: copies, cancelsLosers: cancel == "yes", cancellationDelay: cancellationDelay)
            } catch {
                throw InvalidValue("\(error)")
            }
        default:
            throw InvalidValue(unknownName(parameters.name, among: ["none", "on"]))
        }
    }

    /// A hedge as `--hedge` takes it: `parseHedge(text(hedge))` is `hedge`.
    static func text(_ hedge: Hedging?) -> String {
        guard let hedge else { return "none" }
        let cancel =
            "cancel=\(hedge.cancelsLosers ? "yes" : "no")"
            + (hedge.cancellationDelay > .zero ? ":cancel-delay=\(hedge.cancellationDelay.unitText)" : "")
        switch hedge.rule {
        case .fixedDelay(let delay):
            return "on:delay=\(delay.unitText):max-attempts=\(hedge.copies):\(cancel)"
        case .percentile(let percentile):
            return "on:percentile=\(CSVFormat.number(percentile)):\(cancel)"
        case .perTryTimeout(let timeout, let backoff):
            return "on:per-try-timeout=\(timeout.unitText):max-attempts=\(hedge.copies):backoff-base="
                + "\(backoff.base.unitText):backoff-max=\(backoff.cap!.unitText):\(cancel)"
        }
    }
}
