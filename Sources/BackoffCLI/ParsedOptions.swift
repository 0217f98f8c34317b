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

    /// - Parameter helpTopic: the command whose help `--help` shows (default: `command`).
    init(
        command: String, specs: [OptionSpec], tokens: some Collection<ArgumentToken>, helpTopic: String? = nil
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
                throw .usage("Unexpected argument '\(word)'", command: command)
            case .option(let name, let attached):
                guard let spec = specs.first(where: { $0.name == name }) else {
                    let hint = Suggestion.closest(to: name, among: specs.map(\.name)).map { " Did you mean '--\($0)'?" } ?? ""
                    throw .usage("Unknown option '--\(name)'.\(hint)", command: command)
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
    }

    /// True when the user gave the option.
    func isGiven(_ name: String) -> Bool { values[name] != nil }

    /// The text given for the option, or its default.
    func text(_ name: String) -> String? { values[name] ?? spec(name).defaultValue }

    func spec(_ name: String) -> OptionSpec {
        guard let spec = specs.first(where: { $0.name == name }) else {
            preconditionFailure("option '--\(name)' is not declared for '\(command)'")
        }
        return spec
    }

    /// The usage error for a bad value of `name`, quoting it and the accepted form.
    func invalid(_ name: String, _ value: String, detail: String? = nil) -> CommandLineError {
        let spec = spec(name)
        let reason = detail.map { "\($0); expected \(spec.form)" } ?? "expected \(spec.form)"
        return .usage("Invalid value '\(value)' for '\(spec.usage)': \(reason)", command: command)
    }

    /// The option's value parsed by `parse` and accepted by `isValid`; `nil` when not given and no default.
    func value<Value>(
        _ name: String, _ parse: (String) -> Value?, where isValid: (Value) -> Bool = { _ in true }
    ) throws(CommandLineError) -> Value? {
        guard let text = text(name) else { return nil }
        guard let value = parse(text), isValid(value) else { throw invalid(name, text) }
        return value
    }

    /// Like ``value(_:_:where:)`` for options that always have a value (a default).
    func required<Value>(
        _ name: String, _ parse: (String) -> Value?, where isValid: (Value) -> Bool = { _ in true }
    ) throws(CommandLineError) -> Value {
        guard let value = try value(name, parse, where: isValid) else {
            preconditionFailure("option '--\(name)' of '\(command)' needs a default")
        }
        return value
    }
}
