import BackoffPolicies
import Foundation
import RetrySimulation

/// The options of `backoff simulate` that put service layers between the clients and the server
/// (`--layer`, repeatable, top to bottom), and the requests' deadline.
///
/// A layer's SPEC is comma-separated `key=value` pairs: any policy option without its dashes
/// (`max-attempts=3`, `base=50ms`, `jitter=full`, `preset=NAME`...), `budget=` and `breaker=`, and
/// `name=`, `timeout=` (the per-try timeout of its calls to the layer below) and the key of each
/// layer behaviour (``LayerBehaviours/registered``: `concurrency=`, the requests it holds at once),
/// read by the behaviour's own setting. A layer may hedge its attempts (to the server's replicas at
/// the bottom, as calls of the layer below above it):
/// `hedge-delay=`, `hedge-percentile=` or `hedge-per-try-timeout=`, with `hedge-max-attempts=`,
/// `hedge-cancel=`, `hedge-cancel-delay=`, `hedge-backoff-base=` and `hedge-backoff-max=`, the keys
/// of `--hedge on:...` prefixed. The pairs are read through the very declarations of those options,
/// so a layer accepts what they accept; an error names the layer and the key.
struct LayerOptions {
    /// Per jitter mode of the rows (in `--jitter`'s order), the layers top to bottom.
    let layers: [[ServiceLayer]]
    let deadline: Duration?
    let propagatesDeadline: Bool
    /// Remarks for stderr.
    let warnings: [String]

    static let layer = Option.repeatable(
        "layer", "spec", form: "comma-separated KEY=VALUE pairs, e.g. name=api,max-attempts=3,timeout=1s",
        help: "Add a service layer between the clients and the server (repeatable, top to bottom). Keys: the policy "
            + "options without their dashes (max-attempts, base, jitter, cap, preset...), budget, breaker, name, "
            + "timeout (per-try, to the layer below), "
            + LayerBehaviours.registered.map { "\($0.key) (\($0.summary))" }.joined(separator: ", ") + ", and "
            + "hedge-delay or hedge-per-try-timeout (hedge-percentile on the bottom layer only) with "
            + "hedge-max-attempts, hedge-cancel, hedge-cancel-delay, hedge-backoff-base and hedge-backoff-max "
            + "(--hedge's keys): the layer hedges its attempts, to the replicas at the bottom, as calls of the "
            + "layer below above it, a loser's call cancelled down the stack.",
        parse: Parsers.text
    ).setting(.layers).grouped(.layers)
    static let deadline = Option<Duration?>.optional(
        "deadline", "duration", kind: .duration, form: "a duration greater than 0 with a unit (e.g. 2s)",
        help: "With --layer: each request's overall deadline; when it passes the request ends (deadline_exceeded), "
            + "and the clients start no retry after it.",
        parse: Parsers.duration
    ).setting(.deadline, formStatesRange: true).grouped(.layers)
    static let propagation = Option.flag(
        "deadline-propagation",
        help: "With --deadline: every sub-request carries the time left (gRPC-style): a layer starts no retry that "
            + "cannot finish before it, and the work below is cancelled when it passes."
    ).grouped(.layers)
    static let report = Option<String?>.optional(
        "layer-report", "file", form: "a file path",
        help: "Also write one row per jitter mode and layer (the clients first): requests, attempts sent down, "
            + "outcomes, timeouts, rejections, amplification, hedge copies and calls a hedge above cancelled.",
        parse: Parsers.text
    ).grouped(.layers)
    static let specs = [layer.spec, deadline.spec, propagation.spec, report.spec]

    // The keys a SPEC takes beyond the policy options.
    static let name = Option<String?>.optional(
        "name", "name", form: "a name without commas", help: "The layer's name (default: layerK).", parse: Parsers.text)
    static let timeout = Option(
        "timeout", "duration", kind: .duration, default: "none",
        form: "a duration greater than 0 (e.g. 500ms), or none",
        help: "The layer's per-try timeout.", parse: Parsers.durationOrNone)
    /// A key per layer behaviour, read by the behaviour's setting.
    static let behaviourOptions = LayerBehaviours.registered.map { setting in
        Option<(any LayerSetting)?>.optional(
            setting.key, setting.valueName, kind: OptionKind(setting.valueKind), form: setting.form, help: setting.help,
            parse: { text throws(InvalidValue) in
                do throws(LayerSettingError) {
                    return try setting.init(parsing: text)
                } catch {
                    throw InvalidValue(error.detail)
                }
            })
    }

    /// The hedge's keys, `--hedge on:KEY=VALUE` with KEY prefixed by `hedge-`.
    static let hedgeOptions = HedgeSpec.keys.map { key in
        Option<String?>.optional(
            "hedge-\(key)", "value", form: "a value as --hedge on:\(key)=VALUE takes it",
            help: "The layer's hedge of its attempts: --hedge's \(key).", parse: Parsers.text)
    }

    /// The declarations a SPEC's keys are read through, with the rows' jitter as the default.
    static func keySpecs(defaultJitter: String) -> [OptionSpec] {
        PolicyOptions.specs(defaultJitter: defaultJitter).filter { $0.name != PolicyOptions.failureKind.name }
            + [ScenarioOptions.budget.spec, ScenarioOptions.breaker.spec, name.spec, timeout.spec]
            + behaviourOptions.map(\.spec)
            + hedgeOptions.map(\.spec)
    }

    /// The layer's hedge from its `hedge-` keys, read as `--hedge on:...` reads its own; `nil` without any.
    private static func hedge(_ parsed: ParsedOptions) throws(CommandLineError) -> Hedging? {
        var values: [String: String] = [:]
        for (key, option) in zip(HedgeSpec.keys, hedgeOptions) {
            if let value = try parsed(option) { values[key] = value }
        }
        guard !values.isEmpty else { return nil }
        guard values["delay"] != nil || values["percentile"] != nil || values["per-try-timeout"] != nil else {
            throw CommandLineError.usage(
                "the hedge needs hedge-delay=DURATION, hedge-percentile=Q or hedge-per-try-timeout=DURATION (when "
                    + "each next copy goes), e.g. hedge-delay=10ms", command: parsed.command)
        }
        do {
            return try HedgeSpec.hedge(SpecParameters(name: "on", values: values, keyPrefix: "hedge-"))
        } catch {
            throw CommandLineError.usage("the hedge: \(error.detail ?? "not of the form")", command: parsed.command)
        }
    }

    init(_ options: ParsedOptions, jitters: [Jitter]) throws(CommandLineError) {
        let texts = try options(all: Self.layer)
        deadline = try options(Self.deadline)
        propagatesDeadline = try options(Self.propagation)
        if propagatesDeadline && deadline == nil {
            throw .usage("'--deadline-propagation' needs '--deadline DURATION'", command: options.command)
        }
        if deadline != nil && texts.isEmpty {
            throw .usage(
                "'--deadline' needs a stack of layers ('--layer SPEC'); for one tier, '--max-elapsed' stops the retries "
                    + "and '--timeout' an attempt", command: options.command)
        }
        var warnings: [String] = []
        if options.isGiven(Self.report) && texts.isEmpty {
            warnings.append("'--layer-report' without '--layer' has only the clients' row")
        }
        // What a layer's policy keys say on stderr (a config file's profile, a key without effect), once.
        let read = try jitters.map { jitter throws(CommandLineError) in
            try texts.enumerated().map { index, text throws(CommandLineError) in
                try Self.readLayer(text, number: index + 1, jitter: jitter, command: options.command)
            }
        }
        layers = read.map { $0.map(\.layer) }
        self.warnings = warnings + (read.first ?? []).flatMap(\.warnings)
    }

    /// The layer of SPEC `text`, the `number`th, for the rows of `jitter`.
    static func layer(_ text: String, number: Int, jitter: Jitter, command: String) throws(CommandLineError)
        -> ServiceLayer
    {
        try readLayer(text, number: number, jitter: jitter, command: command).layer
    }

    /// The layer of SPEC `text`, and what its policy keys say on stderr (``PolicyOptions/warnings``:
    /// a config file's profile, a key without effect), each naming the layer.
    private static func readLayer(_ text: String, number: Int, jitter: Jitter, command: String)
        throws(CommandLineError) -> (layer: ServiceLayer, warnings: [String])
    {
        let what = text.isEmpty ? "'--layer' (layer \(number))" : "'--layer \(text.quotedInMessage)' (layer \(number))"
        let form = "comma-separated KEY=VALUE pairs, e.g. name=api,max-attempts=3,timeout=1s"
        let specs = keySpecs(defaultJitter: jitter.name)
        guard !text.isEmpty else { throw .usage("\(what) is empty; expected \(form)", command: command) }
        var pairs: [(name: String, value: String)] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2, !pair[0].isEmpty else {
                throw .usage(
                    "\(what): '\(piece.quotedInMessage)' is not a KEY=VALUE pair; expected \(form)", command: command)
            }
            guard specs.contains(where: { $0.name == pair[0] && !$0.isFlag }) else {
                let hint =
                    Suggestion.closest(to: pair[0], among: specs.map(\.name)).map { " Did you mean '\($0)'?" } ?? ""
                throw .usage(
                    "\(what): unknown key '\(pair[0].quotedInMessage)'.\(hint) A layer takes "
                        + specs.map(\.name).joined(separator: ", "), command: command)
            }
            guard !pairs.contains(where: { $0.name == pair[0] }) else {
                throw .usage("\(what): the key '\(pair[0])' is given more than once", command: command)
            }
            pairs.append((pair[0], pair[1]))
        }
        // The rows' decorrelated factor stays with the layer unless it sets its own jitter.
        if let factor = jitter.decorrelatedFactor,
            !pairs.contains(where: { $0.name == "jitter" || $0.name == "preset" }),
            !pairs.contains(where: { $0.name == PolicyOptions.decorrelatedFactor.name })
        {
            pairs.append((PolicyOptions.decorrelatedFactor.name, CSVFormat.number(factor)))
        }
        do throws(CommandLineError) {
            let parsed = try ParsedOptions(command: command, specs: specs, given: pairs)
            let policyOptions = try PolicyOptions(parsed, defaultJitter: jitter.name)
            let policies = policyOptions.policies
            guard policies.count == 1 else {
                throw CommandLineError.usage(
                    "Invalid value '\(parsed.text(PolicyOptions.jitter(default: jitter.name)) ?? "")' for "
                        + "'--\(PolicyOptions.jitterName) <list>': a layer takes one jitter mode", command: command)
            }
            let limits = RetryLimits(
                budget: try parsed(ScenarioOptions.budget), breaker: try parsed(ScenarioOptions.breaker))
            let (name, timeout) = (try parsed(Self.name) ?? "layer\(number)", try parsed(Self.timeout))
            var settings: [any LayerSetting] = []
            for option in Self.behaviourOptions {
                if let setting = try parsed(option) { settings.append(setting) }
            }
            if let timeout, timeout <= .zero {
                throw parsed.invalid(Self.timeout, detail: "the per-try timeout must be greater than 0")
            }
            let hedging = try Self.hedge(parsed)
            do {
                let layer = try ServiceLayer(
                    name: name, policy: policies[0], limits: limits, timeout: timeout, settings: settings,
                    hedging: hedging)
                return (layer, policyOptions.warnings.map { "\(what): \($0)" })
            } catch {
                throw CommandLineError.usage("\(error)", command: command)
            }
        } catch {
            guard case .usage(let message, _) = error else { throw error }
            throw .usage("\(what): \(Self.naming(message, specs: specs))", command: command)
        }
    }

    /// A message about options, as one about a SPEC's keys: `'--base <duration>'` reads `key 'base'`.
    private static func naming(_ message: String, specs: [OptionSpec]) -> String {
        var text = message
        for spec in specs {
            text = text.replacingOccurrences(of: "'\(spec.usage)'", with: "key '\(spec.name)'")
                .replacingOccurrences(of: "'--\(spec.name)'", with: "key '\(spec.name)'")
        }
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
