import RetrySimulation

/// The work a run may plan: `--work-limit N` server attempts, at most, by the bound of
/// ``Scenario/attemptBound`` (every attempt failing, at every tier, with every hedge copy). A run
/// over the limit is a usage error that names the bound and what makes it; nothing runs. Without
/// the option nothing is refused, but a run whose bound passes ``announcedAbove`` says on stderr
/// what it may cost before it starts, so that 10^10 attempts is not a silent hang.
struct WorkLimit {
    let attempts: Double?

    static let option = Option<Double?>.optional(
        "work-limit", "count",
        form: "a number of server attempts of at least 1, e.g. 1e9",
        help:
            "Refuse a run that could make more server attempts than this: clients x requests x the attempts of "
            + "every tier (the policy's and each --layer's) x hedge copies (default: no limit; a run past 10^9 says "
            + "what it may cost on stderr).",
        parse: Parsers.form { text in ValueParser.number(text).flatMap { $0 >= 1 ? $0 : nil } }
    ).grouped(.output)

    /// A bound past which a run announces itself.
    static let announcedAbove = 1e9

    init(_ options: ParsedOptions) throws(CommandLineError) {
        attempts = try options(Self.option)
    }

    /// Throws when the runs' bound passes the limit; otherwise the note for stderr, if the bound
    /// is large enough to announce.
    func check(_ scenarios: [Scenario], command: String) throws(CommandLineError) -> String? {
        let bound = scenarios.reduce(0) { $0 + $1.attemptBound }
        let seconds = scenarios.reduce(0) { $0 + $1.attemptBound / $1.attemptsPerSecond }
        let what = Self.describe(scenarios.first)
        if let attempts, bound > attempts {
            throw .usage(
                "'\(command)' could make up to \(MemoryEstimate.count(bound)) server attempts (\(what)), more than "
                    + "--work-limit \(MemoryEstimate.count(attempts)); lower the clients, requests or attempts, or raise the limit",
                command: command)
        }
        guard bound > Self.announcedAbove else { return nil }
        return "up to \(MemoryEstimate.count(bound)) server attempts (\(what)), roughly \(Self.duration(seconds)) "
            + "on one core if every attempt fails; --work-limit refuses such a run"
    }

    /// What makes the bound: the factors multiplied.
    private static func describe(_ scenario: Scenario?) -> String {
        guard let scenario else { return "no run" }
        var factors = ["\(MemoryEstimate.count(scenario.expectedSessions)) clients"]
        if scenario.requestsPerClient > 1 { factors.append("\(scenario.requestsPerClient) requests") }
        factors.append("\(scenario.policy.maxAttempts) attempts")
        if !scenario.layers.isEmpty, let copies = scenario.hedging?.copies, copies > 1 {
            factors.append("\(copies) copies")
        }
        for (index, layer) in scenario.layers.enumerated() {
            factors.append("\(layer.policy.maxAttempts) at a layer")
            if index < scenario.layers.count - 1, let copies = layer.hedging?.copies, copies > 1 {
                factors.append("\(copies) copies")
            }
        }
        if let copies = scenario.activeHedge?.copies, copies > 1 { factors.append("\(copies) copies") }
        if scenario.replications > 1 { factors.append("\(scenario.replications) replications") }
        return factors.joined(separator: " x ") + " per jitter mode"
    }

    /// Seconds as a person reads them: `40 s`, `3.2 h`, `12 days`, `3.1e+04 years`.
    static func duration(_ seconds: Double) -> String {
        switch seconds {
        case ..<120: "\(Int(seconds.rounded(.up))) s"
        case ..<7200: "\(Int((seconds / 60).rounded())) min"
        case ..<172_800: "\(Int((seconds / 3600).rounded())) h"
        case ..<(2 * 31_557_600): "\(Int((seconds / 86400).rounded())) days"
        default: "\(MemoryEstimate.count(seconds / 31_557_600)) years"
        }
    }
}
