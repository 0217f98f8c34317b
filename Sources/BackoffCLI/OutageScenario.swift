import BackoffPolicies

/// The outage `explain` describes and `lint`'s load assertions check: `--clients` clients failing at
/// once against `simulate --server outage:D` (`--outage D`), with the policy options given.
struct OutageScenario {
    /// `--outage D`.
    static let outage = Option(
        "outage", "duration", kind: .duration, default: "2s", form: "a duration greater than 0 with a unit, e.g. 2s",
        help: "The outage the clients meet: simulate's --server outage:D.",
        parse: { text throws(InvalidValue) -> Duration in
            let duration = try Parsers.duration(text)
            guard duration > .zero else { throw InvalidValue("the outage must last longer than 0") }
            return duration
        })
    /// The most clients the outage is simulated with here (a run of seconds at most).
    static let clientLimit = 10_000_000

    let clients: Int
    let outage: Duration

    /// Reads `--clients` (at most ``clientLimit``) and `--outage`.
    init(_ options: ParsedOptions, command: String) throws(CommandLineError) {
        clients = try options(ScenarioOptions.clients)
        guard clients <= Self.clientLimit else {
            throw options.invalid(
                ScenarioOptions.clients,
                detail: "\(command) simulates its outage in process: at most \(Self.clientLimit) clients "
                    + "(simulate takes more)")
        }
        outage = try options(Self.outage)
    }

    /// The options given, as text, in order; the jitter is `none` (lint's and explain's default)
    /// when neither it nor a start (a preset, a config) sets it.
    static func given(_ options: ParsedOptions) -> [(String, String)] {
        var given = options.order.flatMap { name in options.givenTexts(name).map { (name, $0) } }
        if !options.isGiven(PolicyOptions.jitter(default: "none")) && options.start == nil {
            given.append((PolicyOptions.jitterName, "none"))
        }
        return given
    }

    /// `simulate`'s rows for the options in `given` it declares, with these clients and the outage.
    func rows(_ given: [(String, String)]) throws(CommandLineError) -> [[String: String]] {
        try SimulateCommand.rows(
            given.filter { $0.0 != ScenarioOptions.clients.name }
                + [
                    (ScenarioOptions.clients.name, String(clients)),
                    (ScenarioOptions.server.name, "outage:\(outage.unitText)"),
                ])
    }
}

extension BackoffCommand {
    /// The rows of this command's table for the options in `given` that it declares, by column
    /// name: the command run in process, as `explain` and `lint` read the other commands (how a
    /// table is printed, `--format` and the like, is the caller's own).
    static func rows(_ given: [(String, String)]) throws(CommandLineError) -> [[String: String]] {
        let printing = Set(TableOptions.specs.map(\.name))
        let declared = given.filter { name, _ in !printing.contains(name) && specs.contains { $0.name == name } }
        let options = try ParsedOptions(command: Self.name, specs: specs, given: declared)
        let instance = try Self(options)
        try MemoryLimit(options).check(instance.memoryEstimate, command: name)
        if specs.contains(WorkLimit.option.spec) {
            _ = try WorkLimit(options).check(instance.simulatedScenarios, command: name)
        }
        let reader = CSVReader(text: try instance.run().text)
        return reader.records.map { Dictionary(uniqueKeysWithValues: zip(reader.header, $0)) }
    }
}
