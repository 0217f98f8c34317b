import BackoffPolicies

/// The options every command shares to describe a retry policy, and the policies they make: one
/// per jitter mode in `--jitter`, all validated before anything runs.
struct PolicyOptions {
    let jitters: [Jitter]
    let policies: [BackoffPolicy]

    static func specs(defaultJitter: String) -> [OptionSpec] {
        [
            OptionSpec(
                name: "jitter", valueName: "list", help: "Jitter modes, comma-separated: none, full, equal, decorrelated, or all.",
                defaultValue: defaultJitter, form: "a comma-separated list of none, full, equal, decorrelated, or all"),
            OptionSpec(
                name: "schedule", valueName: "name",
                help: "Un-jittered schedule: exponential (b m^(k-1)), constant (b), linear (b + (k-1) d) or immediate (0).",
                defaultValue: "exponential", form: "one of exponential, constant, linear, immediate"),
            OptionSpec(
                name: "base", valueName: "duration", help: "Base wait b: the first retry's un-jittered wait.",
                defaultValue: "100ms", form: "a duration greater than 0 with a unit (ns, us, ms, s, m, h), e.g. 100ms"),
            OptionSpec(
                name: "multiplier", valueName: "number", help: "Multiplier m of the exponential schedule.",
                defaultValue: "2", form: "a number >= 1, e.g. 2"),
            OptionSpec(
                name: "increment", valueName: "duration", help: "Increment d of the linear schedule (default: the base).",
                defaultValue: nil, form: OptionSpec.durationForm),
            OptionSpec(
                name: "cap", valueName: "duration", help: "Cap c on each wait, or none.",
                defaultValue: "5s", form: "a duration at least the base, with a unit (e.g. 5s), or none"),
            OptionSpec(
                name: "max-attempts", valueName: "count", help: "Attempts per request, the first included (RxSwift's retry(n)).",
                defaultValue: "5", form: "a whole number >= 1, e.g. 5"),
            OptionSpec(
                name: "max-retries", valueName: "count",
                help: "Retries per request, the first attempt not counted (Combine's retry(n)); instead of --max-attempts.",
                defaultValue: nil, form: "a whole number >= 0, e.g. 4"),
            OptionSpec(
                name: "max-elapsed", valueName: "duration",
                help: "Give up instead of retrying when the retry would start later than this after the first attempt.",
                defaultValue: nil, form: "a duration with a unit (e.g. 10s), or none"),
            OptionSpec(
                name: "decorrelated-factor", valueName: "number", help: "Factor r of decorrelated jitter: s_k = min(c, U(b, r s_(k-1))).",
                defaultValue: "3", form: "a number > 1, e.g. 3"),
        ]
    }

    init(_ options: ParsedOptions) throws(CommandLineError) {
        let factor = try options.required("decorrelated-factor", ValueParser.number, where: { $0 > 1 })
        jitters = try Self.jitters(options, factor: factor)

        let base = try options.required("base", ValueParser.duration, where: { $0 > .zero })
        let capText = options.text("cap")!
        let cap: Duration? = capText == "none" ? nil : try options.required("cap", ValueParser.duration)
        let multiplier = try options.required("multiplier", ValueParser.number, where: { $0 >= 1 })
        let increment = try options.value("increment", ValueParser.duration) ?? base
        let schedule: BackoffSchedule
        switch options.text("schedule")! {
        case "exponential": schedule = .exponential(multiplier: multiplier)
        case "constant": schedule = .constant
        case "linear": schedule = .linear(increment: increment)
        case "immediate": schedule = .immediate
        case let other:
            let hint = Suggestion.closest(to: other, among: ["exponential", "constant", "linear", "immediate"])
            throw options.invalid("schedule", other, detail: hint.map { "did you mean '\($0)'?" })
        }

        let budget: AttemptBudget
        let budgetOption: String
        if options.isGiven("max-retries") {
            guard !options.isGiven("max-attempts") else {
                throw .usage(
                    "Use either '--max-attempts' or '--max-retries', not both (max retries N means N + 1 attempts)",
                    command: options.command)
            }
            budget = .maxRetries(try options.required("max-retries", ValueParser.integer))
            budgetOption = "max-retries"
        } else {
            budget = .maxAttempts(try options.required("max-attempts", ValueParser.integer, where: { $0 >= 1 }))
            budgetOption = "max-attempts"
        }
        let maxElapsedText = options.text("max-elapsed")
        let maxElapsed: Duration? =
            maxElapsedText == nil || maxElapsedText == "none" ? nil : try options.value("max-elapsed", ValueParser.duration)

        var policies: [BackoffPolicy] = []
        for jitter in jitters {
            do {
                policies.append(try BackoffPolicy(
                    base: base, schedule: schedule, cap: cap, jitter: jitter, budget: budget, maxElapsed: maxElapsed))
            } catch {
                throw Self.usageError(error, options: options, budgetOption: budgetOption)
            }
        }
        self.policies = policies
    }

    private static func jitters(_ options: ParsedOptions, factor: Double) throws(CommandLineError) -> [Jitter] {
        let text = options.text("jitter")!
        if text == "all" { return Jitter.allModes.map { $0 == .decorrelated() ? .decorrelated(factor: factor) : $0 } }
        guard let names = ValueParser.list(text) else { throw options.invalid("jitter", text) }
        var jitters: [Jitter] = []
        for name in names {
            guard let jitter = Jitter(name: name, decorrelatedFactor: factor) else {
                let hint = Suggestion.closest(to: name, among: ["none", "full", "equal", "decorrelated"])
                throw options.invalid(
                    "jitter", text, detail: "unknown jitter '\(name)'" + (hint.map { " (did you mean '\($0)'?)" } ?? ""))
            }
            guard !jitters.contains(jitter) else { throw options.invalid("jitter", text, detail: "'\(name)' is listed twice") }
            jitters.append(jitter)
        }
        return jitters
    }

    /// Names the option behind a policy error, quoting the value the user gave.
    private static func usageError(_ error: PolicyError, options: ParsedOptions, budgetOption: String) -> CommandLineError {
        let option: String
        switch error {
        case .nonPositiveBase: option = "base"
        case .multiplierBelowOne: option = "multiplier"
        case .capBelowBase: option = "cap"
        case .noAttempts, .waitsOverflow: option = budgetOption
        case .decorrelatedFactorNotAboveOne: option = "decorrelated-factor"
        case .negativeIncrement: option = "increment"
        case .negativeMaxElapsed: option = "max-elapsed"
        }
        let detail: String
        switch error {
        case .capBelowBase(_, let base): detail = "the cap must be at least the base (\(DurationText.text(base)))"
        default: detail = "\(error)"
        }
        return options.invalid(option, options.text(option) ?? "", detail: detail)
    }
}

extension PolicyOptions {
    /// The policy columns every table shares, in order: `base_s,multiplier,cap_s,max_attempts`.
    static func columns(_ policy: BackoffPolicy) -> [String] {
        [
            CSVFormat.seconds(policy.base), CSVFormat.number(policy.multiplier), CSVFormat.seconds(policy.cap),
            CSVFormat.integer(policy.maxAttempts),
        ]
    }

    /// The trailing policy columns: `schedule,decorrelated_factor,max_elapsed_s`.
    static let extraHeader = ["schedule", "decorrelated_factor", "max_elapsed_s"]

    static func extraColumns(_ policy: BackoffPolicy) -> [String] {
        let factor: String
        if case .decorrelated(let r) = policy.jitter { factor = CSVFormat.number(r) } else { factor = "" }
        return [policy.schedule.name, factor, CSVFormat.seconds(policy.maxElapsed)]
    }
}
