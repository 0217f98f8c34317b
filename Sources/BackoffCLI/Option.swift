import BackoffPolicies
import RetrySimulation

/// One option of a command, typed: its declaration (name, help, default, accepted form) and the
/// parser that turns its text into a `Value`, as swift-argument-parser's `@Option` is. Commands read
/// `options(Self.base)`, never a string key, so a misspelt option is a compile error.
///
/// An option has a default (its value when not given), or it is optional (`nil` when not given),
/// or it is a flag (`true` when given): the constructors below make only those three.
struct Option<Value: Sendable>: Sendable {
    private(set) var spec: OptionSpec
    /// The value when the option is neither given nor defaulted; `nil` for options with a default.
    let absent: Value?
    let parse: @Sendable (String) throws(InvalidValue) -> Value
    /// The option's value in a preset, when a preset sets it (see ``setByPreset(_:text:)``).
    private(set) var fromPreset: (@Sendable (Preset) -> Value?)? = nil

    var name: String { spec.name }

    /// The option as presets set it: `read` takes a preset's value for it (`nil` when the preset
    /// leaves it alone), and `text` writes that value as messages quote it. A command reading the
    /// option then takes the value given, else the preset's, else the default.
    func setByPreset(_ read: @escaping @Sendable (Preset) -> Value?, text: @escaping @Sendable (Value) -> String)
        -> Option
    {
        var option = self
        option.fromPreset = read
        option.spec.presetText = { preset in read(preset).map(text) }
        return option
    }

    /// An option whose value, when not given, is its default's.
    init(
        _ name: String, _ placeholder: String, kind: OptionKind = .text, default defaultValue: String,
        form: String, help: String, parse: @escaping @Sendable (String) throws(InvalidValue) -> Value
    ) {
        spec = OptionSpec(
            name: name, placeholder: placeholder, kind: kind, help: help, defaultValue: defaultValue, form: form)
        absent = nil
        self.parse = parse
    }

    private init(spec: OptionSpec, absent: Value, parse: @escaping @Sendable (String) throws(InvalidValue) -> Value) {
        self.spec = spec
        self.absent = absent
        self.parse = parse
    }

    /// An option that is `nil` when not given.
    static func optional<Wrapped>(
        _ name: String, _ placeholder: String, kind: OptionKind = .text, form: String, help: String,
        parse: @escaping @Sendable (String) throws(InvalidValue) -> Wrapped
    ) -> Option<Wrapped?> where Value == Wrapped? {
        Option<Wrapped?>(
            spec: OptionSpec(
                name: name, placeholder: placeholder, kind: kind, help: help, defaultValue: nil, form: form),
            absent: nil, parse: { text throws(InvalidValue) in try parse(text) })
    }

    /// The option as the one that sets `parameter` of a policy: the policy's errors about it name
    /// this option; `formStatesRange` says that its form already states the parameter's own range.
    func setting(_ parameter: PolicyParameter, formStatesRange: Bool = false) -> Option {
        setting(.policy(parameter), formStatesRange: formStatesRange)
    }

    /// The option as the one that sets `parameter` of a scenario (see the policy's form above).
    func setting(_ parameter: ScenarioParameter, formStatesRange: Bool = false) -> Option {
        setting(.scenario(parameter), formStatesRange: formStatesRange)
    }

    private func setting(_ parameter: ModelParameter, formStatesRange: Bool) -> Option {
        var option = self
        option.spec.parameter = parameter
        option.spec.formStatesRange = formStatesRange
        return option
    }

    /// The same option (name, default, form, parser, preset reading) with the help line another
    /// command shows for it: one declaration, however many commands take it.
    func withHelp(_ help: String) -> Option {
        var option = self
        option.spec = OptionSpec(
            name: spec.name, placeholder: spec.placeholder, kind: spec.kind, help: help,
            defaultValue: spec.defaultValue,
            form: spec.form, presetText: spec.presetText, isRepeatable: spec.isRepeatable,
            parameter: spec.parameter, formStatesRange: spec.formStatesRange, group: spec.group,
            completions: spec.completions)
        return option
    }

    /// The same option, with `values` offered by shell completion.
    func completing(_ values: [String]) -> Option {
        var option = self
        option.spec.completions = values
        return option
    }

    /// An option that is `nil` when not given, else one of `Choice`'s cases by name.
    static func optional<Choice: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ placeholder: String, form: String, help: String, choices: Choice.Type
    ) -> Option<Choice?> where Value == Choice?, Choice.RawValue == String {
        Option<Choice?>.optional(name, placeholder, form: form, help: help, parse: Parsers.choice(Choice.self))
            .completing(Choice.allCases.map(\.rawValue))
    }

    /// The same option, listed by help in `group`.
    func grouped(_ group: OptionGroup) -> Option {
        var option = self
        option.spec.group = group
        return option
    }

    /// An option that may be given any number of times: each value is parsed alone, and the command
    /// reads them all, in order, with `options(all: option)` (an empty list when none is given).
    static func repeatable<Element>(
        _ name: String, _ placeholder: String, kind: OptionKind = .text, form: String, help: String,
        parse: @escaping @Sendable (String) throws(InvalidValue) -> Element
    ) -> Option<[Element]> where Value == [Element] {
        var spec = OptionSpec(
            name: name, placeholder: placeholder, kind: kind, help: help, defaultValue: nil, form: form)
        spec.isRepeatable = true
        return Option<[Element]>(spec: spec, absent: [], parse: { text throws(InvalidValue) in [try parse(text)] })
    }

    /// A flag: `true` when given.
    static func flag(_ name: String, help: String) -> Option<Bool> where Value == Bool {
        Option<Bool>(
            spec: OptionSpec(name: name, placeholder: "", kind: .flag, help: help, defaultValue: nil, form: "no value"),
            absent: false, parse: { _ in true })
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// An option whose value is one of `Value`'s cases by name, offered by shell completion.
    init(
        _ name: String, _ placeholder: String, default defaultValue: String, form: String, help: String,
        choices: Value.Type
    ) {
        self.init(name, placeholder, default: defaultValue, form: form, help: help, parse: Parsers.choice(Value.self))
        spec.completions = Value.allCases.map(\.rawValue)
    }
}
