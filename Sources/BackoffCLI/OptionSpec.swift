/// The declaration of one option, whatever its value's type: what help shows, what the lexer
/// checks and what a sweep needs to read, range and canonicalise its values.
struct OptionSpec: Sendable, Equatable {
    let name: String
    /// The value's placeholder in help and messages: `duration`, `count`, `number`, `list`, `file`.
    let placeholder: String
    let kind: OptionKind
    /// What the option does (one line of help).
    let help: String
    /// The default, as the user would type it; `nil` when the option is off by default.
    let defaultValue: String?
    /// The accepted form, quoted in error messages.
    let form: String

    /// `--name <value>`, or `--name` for a flag, as help and error messages show it.
    var usage: String { isFlag ? "--\(name)" : "--\(name) <\(placeholder)>" }

    /// A flag takes no value: it is on when given.
    var isFlag: Bool { kind == .flag }
}

extension OptionSpec {
    static let durationForm = "a duration with a unit (ns, us, ms, s, m, h), e.g. 250ms, 1.5s, 2m"
}
