/// One option a command accepts: its name, the kind of value, its default and its help line.
struct OptionSpec: Equatable {
    let name: String
    /// The value's placeholder in help and messages: `duration`, `count`, `number`, `list`, `file`.
    let valueName: String
    /// What the option does (one line of help).
    let help: String
    /// The default, as the user would type it; `nil` when the option is off by default.
    let defaultValue: String?
    /// The accepted form, quoted in error messages.
    let form: String

    /// `--name <value>`, as help and error messages show it.
    var usage: String { "--\(name) <\(valueName)>" }
}

extension OptionSpec {
    static let durationForm = "a duration with a unit (ns, us, ms, s, m, h), e.g. 250ms, 1.5s, 2m"
    static let countForm = "a whole number >= 1"
}
