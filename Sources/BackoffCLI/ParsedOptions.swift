import BackoffPolicies
import Foundation

/// The options of one command, read from tokens and checked against the command's specs:
/// unknown options (with a suggestion), missing values, repeated options and stray words are
/// usage errors here; typed accessors turn each value into its type or a usage error that quotes
/// the value and the accepted form.
struct ParsedOptions {
    let command: String
    let specs: [OptionSpec]
    private(set) var values: [String: String] = [:]
    /// The options given, in the order they appear on the command line.
    private(set) var order: [String] = []
    /// Every value given for each option, in order: one for most, any number for a repeatable one.
    private var repeated: [String: [String]] = [:]
    /// The preset or service config the policy starts from, if one was given (see ``PolicyStart``).
    private(set) var start: PolicyStart?

    /// - Parameters:
    ///   - helpTopic: the command whose help `--help` shows (default: `command`).
    ///   - fillingIn: whether `--preset` and `--grpc-service-config` are read as the policy's start (a
    ///     sweep reads them as axes; each of its points reads its own).
    init(
        command: String, specs: [OptionSpec], tokens: some Collection<ArgumentToken>, helpTopic: String? = nil,
        fillingIn: Bool = true
    ) throws(CommandLineError) {
        self.command = command
        self.specs = specs
        if tokens.contains(where: { $0.kind == .option(name: "help", attachedValue: nil) }) {
            throw .help(HelpRenderer.help(for: helpTopic ?? command))
        }
        var iterator = tokens.makeIterator()
        while let token = iterator.next() {
            switch token.kind {
            case .word(let word):
                throw .usage("Unexpected argument '\(word.quotedInMessage)'", command: command)
            case .option(let name, let attached):
                guard let spec = specs.first(where: { $0.name == name }) else {
                    let hint =
                        Suggestion.closest(to: name, among: specs.map(\.name)).map { " Did you mean '--\($0)'?" } ?? ""
                    throw .usage("Unknown option '--\(name.quotedInMessage)'.\(hint)", command: command)
                }
                guard values[name] == nil || spec.isRepeatable else {
                    throw .usage("Option '--\(name)' is given more than once", command: command)
                }
                let value: String
                if spec.isFlag {
                    guard attached == nil else { throw .usage("Option '--\(name)' takes no value", command: command) }
                    value = ""
                } else if let attached {
                    value = attached
                } else if let next = iterator.next(), case .word(let word) = next.kind {
                    value = word
                } else {
                    throw .usage("Missing value for '\(spec.usage)'", command: command)
                }
                if values[name] == nil { order.append(name) }
                values[name] = values[name] ?? value
                repeated[name, default: []].append(value)
            }
        }
        if fillingIn { try readStart() }
    }

    /// The options `given`, in order, each a declared option with its value as text: a sweep's point,
    /// whose options the sweep has checked already, so nothing is lexed or looked for again.
    init(command: String, specs: [OptionSpec], given: [(name: String, value: String)]) throws(CommandLineError) {
        self.command = command
        self.specs = specs
        values.reserveCapacity(given.count)
        for (name, value) in given {
            // A repeatable option may come several times, its values in order (tune's --layer).
            if values[name] == nil {
                values[name] = value
                order.append(name)
            }
            repeated[name, default: []].append(value)
        }
        try readStart()
    }

    /// Reads the preset, service config or config file given as the policy's start.
    private mutating func readStart() throws(CommandLineError) {
        let starts = [PolicyOptions.preset.name, PolicyOptions.grpcServiceConfig.name, PolicyOptions.config.name]
        let given = starts.filter { values[$0] != nil }
        if given.count > 1 {
            throw .usage(
                "Use one of \(given.map { "'--\($0)'" }.joined(separator: ", ")), not several: each sets the whole policy",
                command: command)
        }
        if let preset = values[PolicyOptions.preset.name] { start = try presetStart(preset) }
        if let serviceConfig = values[PolicyOptions.grpcServiceConfig.name] {
            start = try readServiceConfig(serviceConfig)
        }
        if let config = values[PolicyOptions.config.name] { start = try readConfig(config) }
    }

    /// The preset called `name`; an unknown name is refused with the closest one.
    private func presetStart(_ name: String) throws(CommandLineError) -> PolicyStart {
        guard let preset = Preset.named(name) else {
            let hint = Suggestion.closest(to: name, among: Preset.all.map(\.name)).map { "did you mean '\($0)'?" }
            throw invalid(spec(PolicyOptions.preset.name), name, detail: hint)
        }
        return PolicyStart(preset: preset.answering(failureKind), origin: "--preset \(name)")
    }

    /// The kind of the failures a start's preset answers: `--failure-kind`, else a rate limiter's
    /// throttling errors, else transient ones (an invalid kind is refused when the option is read).
    var failureKind: FailureKind {
        let serverKind: FailureKind? =
            values[ScenarioOptions.server.name]?.hasPrefix("ratelimit:") == true ? .throttling : nil
        return values[PolicyOptions.failureKind.name].flatMap(FailureKind.init(rawValue:)) ?? serverKind ?? .transient
    }

    /// The options the start sets that this command does not have (a budget outside `simulate`),
    /// each as a remark says it: `'--budget aws-quota' (from --preset aws-sdk-standard)`.
    var startOptionsLeftOut: [String] {
        guard let start else { return [] }
        return PolicyStart.settable.compactMap { option in
            guard !specs.contains(where: { $0.name == option.name }), let text = option.presetText?(start.preset) else {
                return nil
            }
            return "'--\(option.name) \(text)' (from \(start.origin(of: option.name)))"
        }
    }

    /// The option's value: parsed from the text given, else the start's (a preset's) value, else
    /// parsed from its default; `nil` for an optional option not given, `false` for a flag not given.
    func callAsFunction<Value>(_ option: Option<Value>) throws(CommandLineError) -> Value {
        if values[option.name] == nil, let start, let value = option.fromPreset?(start.preset) { return value }
        // Only optional options and flags lack a default.
        guard let text = values[option.name] ?? option.spec.defaultValue else { return option.absent! }
        do {
            return try option.parse(text)
        } catch {
            throw invalid(option, detail: error.detail)
        }
    }

    /// Every value of a repeatable option, each parsed as it was given (an empty list when it was not):
    /// a bad one is quoted alone.
    func callAsFunction<Element>(all option: Option<[Element]>) throws(CommandLineError) -> [Element] {
        precondition(option.spec.isRepeatable, "'--\(option.name)' is not repeatable")
        var elements: [Element] = []
        for text in repeated[option.name] ?? [] {
            do {
                elements += try option.parse(text)
            } catch {
                throw invalid(option.spec, text, detail: error.detail)
            }
        }
        return elements
    }

    /// True when the user gave the option.
    func isGiven<Value>(_ option: Option<Value>) -> Bool { values[option.name] != nil }

    /// True when the user gave the option declared by `spec`.
    func isGiven(_ spec: OptionSpec) -> Bool { values[spec.name] != nil }

    /// The text given for the option, or the start's value as text, or its default.
    func text<Value>(_ option: Option<Value>) -> String? { text(option.spec) }

    private func text(_ spec: OptionSpec) -> String? {
        values[spec.name] ?? startText(spec) ?? spec.defaultValue
    }

    /// The start's value for the option, as text, when the start sets it.
    private func startText(_ spec: OptionSpec) -> String? { start.flatMap { spec.presetText?($0.preset) } }

    /// True when the user gave the option or the start set it.
    func isSet<Value>(_ option: Option<Value>) -> Bool { isSet(option.spec) }

    /// The same for the option declared by `spec`.
    func isSet(_ spec: OptionSpec) -> Bool { values[spec.name] != nil || startText(spec) != nil }

    /// The usage error for the option's value (the text given, or its default), quoting it and the
    /// accepted form, with what is wrong beyond the form when `detail` says it.
    func invalid<Value>(_ option: Option<Value>, detail: String? = nil) -> CommandLineError {
        invalid(option.spec, detail: detail)
    }

    /// The same for the option declared by `spec` (an option a model's error names).
    /// A value the user did not give says where it came from (the default, a preset, a service config).
    func invalid(_ spec: OptionSpec, detail: String? = nil) -> CommandLineError {
        let value = text(spec) ?? ""
        return invalid(
            spec, shown: value.quotedInMessage + (origin(of: spec).map { "' (\($0))" } ?? "'"), detail: detail)
    }

    /// The usage error for `value` of the option declared by `spec`.
    func invalid(_ spec: OptionSpec, _ value: String, detail: String? = nil) -> CommandLineError {
        invalid(spec, shown: value.quotedInMessage + "'", detail: detail)
    }

    /// The message itself: `shown` is the value as quoted, with its closing quote and origin.
    private func invalid(_ spec: OptionSpec, shown: String, detail: String?) -> CommandLineError {
        let reason = detail.map { "\($0); expected \(spec.form)" } ?? "expected \(spec.form)"
        return .usage("Invalid value '\(shown) for '\(spec.usage)': \(reason)", command: command)
    }

    /// Where the value of the option declared by `spec` comes from when the user did not give it:
    /// `the default`, or what filled it in (`from --preset envoy-default`); `nil` when given.
    func origin(of spec: OptionSpec) -> String? {
        guard values[spec.name] == nil else { return nil }
        guard let start, startText(spec) != nil else { return "the default" }
        return "from \(start.origin(of: spec.name))"
    }

    /// The text given for the option named `name` (a name read from the command line, as a sweep
    /// does for its axes), or `nil`.
    func givenText(_ name: String) -> String? { values[name] }

    /// Every text given for the option named `name`, in order (one for most options).
    func givenTexts(_ name: String) -> [String] { repeated[name] ?? [] }

    /// The declaration of the option named `name`, which must be one of `specs`.
    func spec(_ name: String) -> OptionSpec {
        guard let spec = specs.first(where: { $0.name == name }) else {
            preconditionFailure("option '--\(name)' is not declared for '\(command)'")
        }
        return spec
    }
}
