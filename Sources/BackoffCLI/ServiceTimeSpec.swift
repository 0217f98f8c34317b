import RetrySimulation

/// `--service`: a capacity server's service time, as the option, the `service` column and `check`
/// take it.
enum ServiceTimeSpec: ArgumentCodec {
    static let form =
        "fixed:DURATION, exp:MEAN or lognormal:MEAN:SD with durations greater than 0, or mixture:W@DIST;W@DIST... "
        + "with weights summing to 1, e.g. exp:20ms"

    static func parse(_ text: String) throws(InvalidValue) -> ServiceTime {
        guard let time = time(text) else { throw InvalidValue() }
        return time
    }

    /// `fixed:D`, `exp:MEAN`, `lognormal:MEAN:SD` or `mixture:W1@DIST1;W2@DIST2;...` (the model
    /// checks the times and that the weights sum to 1).
    static func time(_ text: String) -> ServiceTime? {
        if text.hasPrefix("mixture:") {
            var parts: [ServiceTime.Component] = []
            for piece in text.dropFirst("mixture:".count).split(separator: ";", omittingEmptySubsequences: false) {
                let pair = piece.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                guard pair.count == 2, let weight = ValueParser.number(pair[0]), !pair[1].hasPrefix("mixture"),
                    let time = time(pair[1])
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

    /// `fixed:D`, `exp:MEAN`, `lognormal:MEAN:SD` or `mixture:W@DIST;...`, durations in their own units.
    static func print(_ time: ServiceTime) -> String {
        switch time {
        case .deterministic(let d): "fixed:\(d.unitText)"
        case .exponential(let mean): "exp:\(mean.unitText)"
        case .lognormal(let mean, let sd): "lognormal:\(mean.unitText):\(sd.unitText)"
        case .mixture(let components):
            "mixture:" + components.map { "\(CSVFormat.number($0.weight))@\(print($0.time))" }.joined(separator: ";")
        }
    }
}
