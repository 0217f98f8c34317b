import BackoffPolicies
import RetrySimulation

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
    /// The value a preset (or a service config read as one) gives the option, as text for messages;
    /// `nil` for options no preset sets, and from a preset that leaves the option alone.
    var presetText: (@Sendable (Preset) -> String?)? = nil
    /// Whether the option may be given more than once (each value is kept, in order).
    var isRepeatable = false
    /// The model parameter the option sets, so the model's error about it names this option.
    var parameter: ModelParameter? = nil
    /// Whether the option's form states its parameter's own range (then an error of that range
    /// needs no words beyond the form).
    var formStatesRange = false
    /// Where help lists the option (see ``OptionGroup``).
    var group = OptionGroup.command
    /// The values shell completion offers (an enumeration's cases, the presets, the jitter modes);
    /// empty for a free value.
    var completions: [String] = []

    /// `--name <value>`, or `--name` for a flag, as help and error messages show it.
    var usage: String { isFlag ? "--\(name)" : "--\(name) <\(placeholder)>" }

    /// A flag takes no value: it is on when given.
    var isFlag: Bool { kind == .flag }

    /// The same declaration, listed by help in `group`.
    func grouped(_ group: OptionGroup) -> OptionSpec {
        var spec = self
        spec.group = group
        return spec
    }

    /// Two declarations are the same option when everything but the preset's reading (and the
    /// help group) agrees.
    static func == (lhs: OptionSpec, rhs: OptionSpec) -> Bool {
        (lhs.name, lhs.placeholder, lhs.kind, lhs.help, lhs.defaultValue, lhs.form)
            == (rhs.name, rhs.placeholder, rhs.kind, rhs.help, rhs.defaultValue, rhs.form)
            && lhs.isRepeatable == rhs.isRepeatable
    }
}

extension OptionSpec {
    static let durationForm = "a duration with a unit (ns, us, ms, s, m, h), e.g. 250ms, 1.5s, 2m"
}

/// A parameter of the models the options set: a policy's or a scenario's.
enum ModelParameter: Hashable, Sendable {
    case policy(PolicyParameter)
    case scenario(ScenarioParameter)
}
