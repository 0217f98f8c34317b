import Foundation

/// The options of one command, read from tokens and checked against the command's specs:
/// unknown options (with a suggestion), missing values, repeated options and stray words are
/// usage errors here; typed accessors turn each value into its type or a usage error that quotes
/// the value and the accepted form.
struct ParsedOptions {
    let command: String
    let specs: [OptionSpec]
    private var values: [String: String] = [:]
    /// The options given, in the order they appear on the command line.
    private(set) var order: [String] = []
    /// The values `--preset` fills in for options not given.
    private var presetValues: [String: String] = [:]
    /// Where each filled-in value comes from, as a message says it (`--preset aws-sdk-swift`,
    /// `methodConfig[0].retryPolicy.maxBackoff in --grpc-service-config`).
    private var presetSources: [String: String] = [:]
    /// The preset's (or service config's) options this command does not have (a budget outside
    /// `simulate`), each with where it came from.
    private(set) var presetOptionsLeftOut: [String] = []
    /// Remarks of the gRPC service config read (the method config used, a clamped maxAttempts).
    private(set) var serviceConfigRemarks: [String] = []

    /// - Parameters:
    ///   - helpTopic: the command whose help `--help` shows (default: `command`).
    ///   - fillingIn: whether `--preset` and `--grpc-service-config` fill in the options they set (a
    ///     sweep reads them as axes; each of its points fills its own in).
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
                    let hint = Suggestion.closest(to: name, among: specs.map(\.name)).map { " Did you mean '--\($0)'?" } ?? ""
                    throw .usage("Unknown option '--\(name.quotedInMessage)'.\(hint)", command: command)
                }
                guard values[name] == nil else {
                    throw .usage("Option '--\(name)' is given more than once", command: command)
                }
                order.append(name)
                if spec.isFlag {
                    guard attached == nil else { throw .usage("Option '--\(name)' takes no value", command: command) }
                    values[name] = ""
                } else if let attached {
                    values[name] = attached
                } else if let next = iterator.next(), case .word(let value) = next.kind {
                    values[name] = value
                } else {
                    throw .usage("Missing value for '\(spec.usage)'", command: command)
                }
            }
        }
        if fillingIn { try fillInPolicy() }
    }

    /// The options `given`, in order, each a declared option with its value as text: a sweep's point,
    /// whose options the sweep has checked already, so nothing is lexed or looked for again.
    init(command: String, specs: [OptionSpec], given: [(name: String, value: String)]) throws(CommandLineError) {
        self.command = command
        self.specs = specs
        values.reserveCapacity(given.count)
        for (name, value) in given {
            values[name] = value
            order.append(name)
        }
        try fillInPolicy()
    }

    /// Fills in the options that `--preset` or `--grpc-service-config` sets and the user did not give.
    private mutating func fillInPolicy() throws(CommandLineError) {
        let (preset, serviceConfig) = (values[PolicyOptions.preset.name], values[PolicyOptions.grpcServiceConfig.name])
        if preset != nil && serviceConfig != nil {
            throw .usage("Use either '--preset' or '--grpc-service-config', not both", command: command)
        }
        if let preset { try applyPreset(preset) }
        if let serviceConfig { try applyServiceConfig(serviceConfig) }
    }

    /// Fills the preset's values in for the options not given (see ``Preset``).
    private mutating func applyPreset(_ name: String) throws(CommandLineError) {
        guard let preset = Preset.named(name) else {
            let hint = Suggestion.closest(to: name, among: Preset.all.map(\.name)).map { "did you mean '\($0)'?" }
            throw invalid(spec(PolicyOptions.preset.name), name, detail: hint)
        }
        fillIn(preset.options, from: "--preset \(name)")
    }

    /// Reads the gRPC service config at `path` and fills its retry policy in, as a preset does.
    private mutating func applyServiceConfig(_ path: String) throws(CommandLineError) {
        let spec = spec(PolicyOptions.grpcServiceConfig.name)
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: 1 << 20)
        } catch {
            switch error {
            case .unreadable: throw invalid(spec, path, detail: "the file cannot be read")
            case .tooLarge: throw invalid(spec, path, detail: "the file is larger than 1 MiB, too large for a service config")
            }
        }
        do {
            let config = try GrpcServiceConfig(json: data, method: values[PolicyOptions.grpcMethod.name])
            serviceConfigRemarks = config.remarks
            fillIn(config.options, from: "--grpc-service-config", sources: config.sources.mapValues { "\($0) in --grpc-service-config" })
        } catch {
            throw invalid(spec, path, detail: error.detail)
        }
    }

    /// Takes each value for its option unless the option (or an alternative spelling of it) was given.
    private mutating func fillIn(_ options: [(name: String, value: String)], from source: String, sources: [String: String] = [:]) {
        for (option, value) in options where values[option] == nil {
            let alternatives = Preset.alternatives.first { $0.contains(option) } ?? [option]
            guard alternatives.allSatisfy({ values[$0] == nil }) else { continue }
            if specs.contains(where: { $0.name == option }) {
                presetValues[option] = value
                presetSources[option] = sources[option] ?? source
            } else {
                presetOptionsLeftOut.append("--\(option) \(value)' (from \(source))")
            }
        }
    }

    /// The option's value: parsed from the text given, or from its default; `nil` for an optional
    /// option not given, `false` for a flag not given.
    func callAsFunction<Value>(_ option: Option<Value>) throws(CommandLineError) -> Value {
        guard let text = text(option) else { return option.absent! }  // only optional options and flags lack a default
        do {
            return try option.parse(text)
        } catch {
            throw invalid(option, detail: error.detail)
        }
    }

    /// True when the user gave the option.
    func isGiven<Value>(_ option: Option<Value>) -> Bool { values[option.name] != nil }

    /// True when the user gave the option declared by `spec`.
    func isGiven(_ spec: OptionSpec) -> Bool { values[spec.name] != nil }

    /// The text given for the option, or the preset's, or its default.
    func text<Value>(_ option: Option<Value>) -> String? {
        values[option.name] ?? presetValues[option.name] ?? option.spec.defaultValue
    }

    /// True when the user gave the option or the preset set it.
    func isSet<Value>(_ option: Option<Value>) -> Bool { values[option.name] != nil || presetValues[option.name] != nil }

    /// The usage error for the option's value (the text given, or its default), quoting it and the
    /// accepted form, with what is wrong beyond the form when `detail` says it.
    func invalid<Value>(_ option: Option<Value>, detail: String? = nil) -> CommandLineError {
        invalid(option.spec, detail: detail)
    }

    /// The same for the option declared by `spec` (an option a model's error names).
    /// A value the user did not give says where it came from (the default, a preset, a service config).
    func invalid(_ spec: OptionSpec, detail: String? = nil) -> CommandLineError {
        let value = values[spec.name] ?? presetValues[spec.name] ?? spec.defaultValue ?? ""
        return invalid(spec, shown: value.quotedInMessage + (origin(of: spec).map { "' (\($0))" } ?? "'"), detail: detail)
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
        return presetSources[spec.name].map { "from \($0)" } ?? "the default"
    }

    /// The text given for the option named `name` (a name read from the command line, as a sweep
    /// does for its axes), or `nil`.
    func givenText(_ name: String) -> String? { values[name] }

    /// The declaration of the option named `name`, which must be one of `specs`.
    func spec(_ name: String) -> OptionSpec {
        guard let spec = specs.first(where: { $0.name == name }) else {
            preconditionFailure("option '--\(name)' is not declared for '\(command)'")
        }
        return spec
    }
}
