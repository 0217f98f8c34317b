import BackoffPolicies
import RetrySimulation

/// The scenario options' own grammars: arrivals, servers, the retry trigger and service times.
extension ScenarioOptions {
    /// `--arrivals` as written: the duration of Poisson arrivals comes from `--duration`.
    enum ArrivalsText: Sendable {
        case burst
        case uniform(window: Duration)
        case poisson(ratePerSecond: Double)

        init?(_ text: String) {
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            switch (parts.first, parts.count) {
            case ("burst", 1): self = .burst
            case ("uniform", 2):
                guard let window = ValueParser.duration(parts[1]) else { return nil }
                self = .uniform(window: window)
            case ("poisson", 2):
                guard let rate = ValueParser.number(parts[1]) else { return nil }
                self = .poisson(ratePerSecond: rate)
            default: return nil
            }
        }
    }

    @Sendable static func parseServer(_ text: String) throws(InvalidValue) -> ServerModel {
        if text.hasPrefix("trace:") { return .trace(try TraceFile.trace(path: String(text.dropFirst(6)))) }
        if let model = ServerSpec.model(text) { return model }
        let name = String(text.prefix { $0 != ":" })
        guard !ServerSpec.names.contains(name) else { throw InvalidValue() }
        throw InvalidValue(
            Suggestion.closest(to: name, among: ServerSpec.names).map {
                "unknown model '\(name)' (did you mean '\($0)'?)"
            })
    }

    /// `timer`, `recovery` (the default notification delay) or `recovery:DURATION`.
    @Sendable static func parseTrigger(_ text: String) -> RetryTrigger? {
        if text == "timer" { return .timer }
        if text == "recovery" { return .recovery(notificationDelay: defaultNotificationDelay) }
        guard text.hasPrefix("recovery:"), let delay = ValueParser.duration(String(text.dropFirst(9))) else {
            return nil
        }
        return .recovery(notificationDelay: delay)
    }

    /// `fixed:D`, `exp:MEAN`, `lognormal:MEAN:SD` or `mixture:W1@DIST1;W2@DIST2;...` (the model
    /// checks the times and that the weights sum to 1).
    @Sendable static func serviceTime(_ text: String) -> ServiceTime? {
        if text.hasPrefix("mixture:") {
            var parts: [ServiceTime.Component] = []
            for piece in text.dropFirst("mixture:".count).split(separator: ";", omittingEmptySubsequences: false) {
                let pair = piece.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard pair.count == 2, let weight = ValueParser.number(pair[0]), !pair[1].hasPrefix("mixture"),
                    let time = serviceTime(pair[1])
                else { return nil }
                parts.append(ServiceTime.Component(weight: weight, time: time))
            }
            return .mixture(parts)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let times = parts.dropFirst().compactMap(ValueParser.duration)
        guard times.count == parts.count - 1, let first = times.first else { return nil }
        switch (parts[0], times.count) {
        case ("fixed", 1): return .deterministic(first)
        case ("exp", 1): return .exponential(mean: first)
        case ("lognormal", 2): return .lognormal(mean: first, standardDeviation: times[1])
        default: return nil
        }
    }
}
