import BackoffPolicies

/// Reading `--jitter`: a list of mode names, each once, the parameterised ones with their parameter.
extension PolicyOptions {
    /// `--jitter`: names, or `all`, each once (the decorrelated modes with the default factor until
    /// the factor is known). `proportional:F`, `upward:F` and `additive:D` carry their parameter.
    @Sendable static func parseJitters(_ text: String) throws(InvalidValue) -> [Jitter] {
        if text == "all" { return Jitter.allModes }
        guard let names = ValueParser.list(text) else { throw InvalidValue() }
        var jitters: [Jitter] = []
        for name in names {
            let jitter = try parseJitter(name)
            guard !jitters.contains(jitter) else { throw InvalidValue("'\(name)' is listed twice") }
            jitters.append(jitter)
        }
        return jitters
    }

    /// One jitter mode by name.
    static func parseJitter(_ name: String) throws(InvalidValue) -> Jitter {
        if let jitter = Jitter(name: name) { return jitter }
        let (family, parameter) =
            name.firstIndex(of: ":").map { (String(name[..<$0]), String(name[name.index(after: $0)...])) }
            ?? (name, nil)
        switch (family, parameter) {
        case ("proportional", let text?):
            guard let f = ValueParser.number(text), f >= 0, f <= 1 else {
                throw InvalidValue("'\(name)': proportional:F takes a fraction F in [0, 1], e.g. proportional:0.5")
            }
            return .proportional(fraction: f)
        case ("upward", let text?):
            guard let f = ValueParser.number(text), f >= 0, f.isFinite else {
                throw InvalidValue("'\(name)': upward:F takes a fraction F >= 0, e.g. upward:0.1")
            }
            return .upward(fraction: f)
        case ("additive", let text?):
            guard let d = ValueParser.duration(text), d >= .zero else {
                throw InvalidValue("'\(name)': additive:D takes a duration D >= 0 with a unit, e.g. additive:1s")
            }
            return .additive(spread: d)
        case ("proportional", nil):
            throw InvalidValue("proportional jitter needs its fraction F in [0, 1], e.g. proportional:0.5")
        case ("upward", nil):
            throw InvalidValue("upward jitter needs its fraction F >= 0, e.g. upward:0.1")
        case ("additive", nil):
            throw InvalidValue("additive jitter needs its spread D, a duration, e.g. additive:1s")
        default:
            let hint = Suggestion.closest(
                to: family, among: Jitter.names.map { $0.split(separator: ":").first.map(String.init) ?? $0 })
            throw InvalidValue("unknown jitter '\(name)'" + (hint.map { " (did you mean '\($0)'?)" } ?? ""))
        }
    }
}
