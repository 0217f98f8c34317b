import BackoffPolicies

/// One jitter mode, as `--jitter` lists them, a layer's `jitter=` and the `jitter` column take it:
/// `none`, `full`, `equal`, `proportional:F`, `upward:F`, `additive:D`, `decorrelated`,
/// `decorrelated-monotone`, `polly-v2` or `exponential`. A decorrelated mode's factor is not in its name (it is
/// `--decorrelated-factor`'s, and the `decorrelated_factor` column's): it reads back as 3.
enum JitterSpec: ArgumentCodec {
    static let form = Jitter.names.joined(separator: ", ")

    /// One jitter mode by name.
    static func parse(_ name: String) throws(InvalidValue) -> Jitter {
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

    static func print(_ jitter: Jitter) -> String { jitter.name }
}
