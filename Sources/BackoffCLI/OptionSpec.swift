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

    /// `--name <value>`, or `--name` for a flag, as help and error messages show it.
    var usage: String { isFlag ? "--\(name)" : "--\(name) <\(valueName)>" }

    /// A flag takes no value: it is on when given.
    var isFlag: Bool { valueName.isEmpty }

    /// A flag: no value, off by default.
    static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: "", help: help, defaultValue: nil, form: "no value")
    }
}

extension OptionSpec {
    static let durationForm = "a duration with a unit (ns, us, ms, s, m, h), e.g. 250ms, 1.5s, 2m"
    static let countForm = "a whole number >= 1"
}
