import BackoffPolicies
import RetrySimulation

/// `--hedge`: a hedge, or `none` (see ``LimitSpec`` for the syntax).
enum HedgeSpec: ArgumentCodec {
    static let form =
        "none, on:delay=DURATION[:max-attempts=N][:cancel=yes|no][:cancel-delay=DURATION] (N from 1 to "
        + "\(Hedging.maximumCopies), copies in all), or on:percentile=Q[:cancel=yes|no][:cancel-delay=DURATION] "
        + "(Finagle's backup at the Q-th percentile of recent latencies, 0 < Q <= 1), or "
        + "on:per-try-timeout=DURATION[:max-attempts=N][:backoff-base=DURATION][:backoff-max=DURATION][:cancel=yes|no] "
        + "(Envoy's hedge_on_per_try_timeout), e.g. on:delay=10ms:max-attempts=2, on:percentile=0.99 or "
        + "on:per-try-timeout=100ms"

    /// The keys of `--hedge on:KEY=VALUE:...`, which a layer takes prefixed (`hedge-delay=`).
    static let keys = [
        "delay", "percentile", "per-try-timeout", "max-attempts", "cancel", "cancel-delay", "backoff-base",
        "backoff-max",
    ]

    /// A hedge, or `nil` for `none`: copies of each attempt `delay` apart, `max-attempts` in all
    /// (2 unless given), the first success cancelling the others unless `cancel=no`; or, with
    /// `percentile=Q` instead of `delay`, Finagle's one backup at the Q-th percentile of recent latencies.
    static func parse(_ text: String) throws(InvalidValue) -> Hedging? {
        let name = String(text.prefix { $0 != ":" })
        guard name == "none" || name == "on" else {
            throw InvalidValue(LimitSpec.unknownName(name, among: ["none", "on"]))
        }
        let parameters = try SpecParameters(text, keys: name == "on" ? keys : [])
        switch parameters.name {
        case "none" where parameters.isEmpty:
            return nil
        case "on":
            return try hedge(parameters)
        default:
            throw InvalidValue(LimitSpec.unknownName(parameters.name, among: ["none", "on"]))
        }
    }

    /// The hedge of `on`'s parameters (``keys``), from `--hedge on:...` or a layer's `hedge-` keys;
    /// messages name each key as `parameters` labels it.
    static func hedge(_ parameters: SpecParameters) throws(InvalidValue) -> Hedging {
        func quoted(_ key: String) -> String { parameters.quoted(key, parameters[given: key] ?? "") }
        func label(_ key: String) -> String { parameters.label(key) }
        let cancel = try parameters.choice(
            "cancel", "yes", among: ["yes", "no"], "yes (the first success cancels the other copies) or no")
        let cancellationDelay = try parameters.nonNegativeDuration(
            "cancel-delay", .zero, "how long a cancellation takes to reach the server")
        if cancel == "no", let given = parameters[given: "cancel-delay"] {
            throw InvalidValue(
                "\(parameters.quoted("cancel-delay", given)): \(label("cancel-delay")) needs \(label("cancel"))=yes "
                    + "(without cancellation the losers run to their end)")
        }
        let rules = ["delay", "percentile", "per-try-timeout"].filter { parameters[given: $0] != nil }
        if rules.count > 1 {
            throw InvalidValue(
                "\(quoted(rules[1])): give one of \(label("delay")), \(label("percentile")) (Finagle's) and "
                    + "\(label("per-try-timeout")) (Envoy's), not \(label(rules[0])) and \(label(rules[1]))")
        }
        for key in ["backoff-base", "backoff-max"] where rules.first != "per-try-timeout" {
            if let given = parameters[given: key] {
                throw InvalidValue(
                    "\(parameters.quoted(key, given)): \(label(key)) is the backoff before a per-try timeout's "
                        + "hedge, and needs \(label("per-try-timeout"))=DURATION")
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
                throw InvalidValue("\(quoted(key)): \(error)")
            }
        }
        if parameters[given: "percentile"] != nil {
            if let delay = parameters[given: "delay"] {
                throw InvalidValue(
                    "\(parameters.quoted("delay", delay)): give \(label("delay")) or \(label("percentile")), not both "
                        + "(\(label("percentile")) is Finagle's delay, the percentile of recent latencies)")
            }
            let copies = try parameters.count("max-attempts", 2, in: 1...Hedging.maximumCopies)
            guard copies == 2 else {
                throw InvalidValue(
                    "\(quoted("max-attempts")): with \(label("percentile")) a hedge sends one backup, as Finagle "
                        + "does (\(label("max-attempts"))=2, the default)")
            }
            let what =
                "a fraction above 0 and at most 1 (1 - Finagle's maxExtraLoad: 0.99 sends backups at the p99)"
            // Read here rather than by `SpecParameters.number`, whose message would add "from 0 to 1".
            guard let percentile = ValueParser.number(parameters[given: "percentile"]!), percentile > 0, percentile <= 1
            else {
                throw InvalidValue("\(quoted("percentile")): \(label("percentile")) takes \(what)")
            }
            do {
                return try Hedging(
                    percentile: percentile, cancelsLosers: cancel == "yes", cancellationDelay: cancellationDelay)
            } catch {
                throw InvalidValue("\(error)")
            }
        }
        let delay = try parameters.requiredDuration(
            "delay", "when each next copy goes, or \(label("percentile"))=Q or \(label("per-try-timeout"))=T")
        let copies = try parameters.count("max-attempts", 2, in: 1...Hedging.maximumCopies)
        do {
            return try Hedging(
                delay: delay, copies: copies, cancelsLosers: cancel == "yes", cancellationDelay: cancellationDelay)
        } catch {
            throw InvalidValue("\(error)")
        }
    }

    /// A hedge as `--hedge` takes it: `parse(print(hedge))` is `hedge`.
    static func print(_ hedge: Hedging?) -> String {
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
