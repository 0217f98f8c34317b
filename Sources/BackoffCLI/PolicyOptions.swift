import BackoffPolicies

/// The options every command shares to describe a retry policy, and the policies they make: one
/// per jitter mode in `--jitter`, all validated before anything runs.
///
/// The options check their syntax; `BackoffPolicy.init` checks the ranges (base > 0, m >= 1, at
/// least one attempt, r > 1, cap >= base), and its error is reported against the option it concerns.
struct PolicyOptions {
    let policies: [BackoffPolicy]
    /// Remarks for stderr: options given that no policy uses (their values are not checked).
    let warnings: [String]

    /// The schedules by command-line name.
    enum ScheduleName: String, CaseIterable, Sendable {
        case exponential, constant, linear, immediate

        init(_ schedule: BackoffSchedule) {
            self =
                switch schedule {
                case .exponential: .exponential
                case .constant: .constant
                case .linear: .linear
                case .immediate: .immediate
                }
        }
    }

    /// The jitter modes shell completion offers (`proportional:` for one that takes a parameter).
    static let jitterCompletions =
        Jitter.names.map { $0.contains(":") ? "\($0.prefix { $0 != ":" }):" : $0 } + ["all"]

    /// `--jitter`'s name (its declaration takes each command's default list).
    static let jitterName = "jitter"
    static func jitter(default defaultValue: String) -> Option<[Jitter]> {
        Option(
            jitterName, "list", default: defaultValue,
            form: "a comma-separated list of none, full, equal, proportional:F, upward:F, additive:D, decorrelated, "
                + "decorrelated-monotone, polly-v2, exponential, or all",
            help:
                "Jitter modes, comma-separated: none, full, equal, proportional:F, upward:F, additive:D, decorrelated, "
                + "decorrelated-monotone, polly-v2, exponential (a wait exponential of mean e_k), or all (none, full, "
                + "equal, decorrelated).",
            parse: parseJitters
        ).setByPreset({ [$0.policy.jitter] }, text: { $0.map(\.name).joined(separator: ",") }).setting(.jitter)
            .completing(jitterCompletions)
    }
    static let capMode = Option<CapMode?>.optional(
        "cap-mode", "mode", form: "nominal or clamp",
        help:
            "Where the cap applies: nominal (cap the nominal wait, then jitter) or clamp (jitter, then min(cap, wait)). "
            + "Default: each mode's rule (clamp for decorrelated and polly-v2, nominal for the others).",
        choices: CapMode.self
    ).setByPreset({ .some($0.policy.capMode) }, text: { $0?.rawValue ?? "" }).setting(.capMode)
    static let schedule = Option(
        "schedule", "name", default: "exponential", form: "one of exponential, constant, linear, immediate",
        help: "Un-jittered schedule: exponential (b m^(k-1)), constant (b), linear (b + (k-1) d) or immediate (0).",
        choices: ScheduleName.self
    ).setByPreset({ ScheduleName($0.policy.schedule) }, text: \.rawValue)
    static let base = Option(
        "base", "duration", kind: .duration, default: "100ms",
        form: "a duration greater than 0 with a unit (ns, us, ms, s, m, h), e.g. 100ms",
        help: "Base wait b: the first retry's un-jittered wait.", parse: Parsers.duration
    ).setByPreset({ $0.policy.base }, text: \.unitText).setting(.base, formStatesRange: true)
    static let multiplier = Option(
        "multiplier", "number", kind: .number, default: "2", form: "a number >= 1, e.g. 2",
        help: "Multiplier m of the exponential schedule.", parse: Parsers.number
    ).setByPreset(
        { if case .exponential(let m) = $0.policy.schedule { m } else { nil } }, text: { CSVFormat.number($0) }
    ).setting(.multiplier, formStatesRange: true)
    static let increment = Option<Duration?>.optional(
        "increment", "duration", kind: .duration, form: OptionSpec.durationForm,
        help: "Increment d of the linear schedule (default: the base).", parse: Parsers.duration
    ).setByPreset(
        { if case .linear(let d) = $0.policy.schedule { .some(d) } else { nil } }, text: { $0?.unitText ?? "" }
    ).setting(.increment)
    static let cap = Option(
        "cap", "duration", kind: .duration, default: "5s",
        form: "a duration at least the base, with a unit (e.g. 5s), or none",
        help: "Cap c on each wait, or none.", parse: Parsers.durationOrNone
    ).setByPreset({ .some($0.policy.cap) }, text: { $0?.unitText ?? "none" }).setting(.cap)
    static let maxAttempts = Option(
        "max-attempts", "count", kind: .count, default: "5", form: Parsers.countForm(attemptRange, example: 5),
        help: "Attempts per request, the first included (RxSwift's retry(n)).", parse: Parsers.count(in: attemptRange)
    ).setByPreset({ if case .maxAttempts(let n) = $0.policy.budget { n } else { nil } }, text: { String($0) }).setting(
        .attempts, formStatesRange: true)
    /// Attempts a request may make.
    static let attemptRange = 1...1_000_000_000
    static let maxRetries = Option<Int?>.optional(
        "max-retries", "count", kind: .count, form: Parsers.countForm(0...(attemptRange.upperBound - 1), example: 4),
        help: "Retries per request, the first attempt not counted (Combine's retry(n)); instead of --max-attempts.",
        parse: Parsers.count(in: 0...(attemptRange.upperBound - 1))
    ).setByPreset(
        { if case .maxRetries(let r) = $0.policy.budget { .some(r) } else { nil } }, text: { $0.map(String.init) ?? "" }
    ).setting(.attempts, formStatesRange: true)
    static let maxElapsed = Option<Duration??>.optional(
        "max-elapsed", "duration", kind: .duration, form: "a duration with a unit (e.g. 10s), or none",
        help: "Give up instead of retrying when the retry would start later than this after the first attempt.",
        parse: Parsers.durationOrNone
    ).setByPreset({ $0.policy.maxElapsed.map { .some(.some($0)) } }, text: { $0??.unitText ?? "none" }).setting(
        .maxElapsed)
    static let decorrelatedFactor = Option(
        "decorrelated-factor", "number", kind: .number, default: "3", form: "a number > 1, e.g. 3",
        help: "Factor r of decorrelated jitter: s_k = min(c, U(b, r s_(k-1))).", parse: Parsers.number
    ).setByPreset({ $0.policy.jitter.decorrelatedFactor }, text: { CSVFormat.number($0) }).setting(
        .decorrelatedFactor, formStatesRange: true)

    static let firstRetry = Option(
        "first-retry", "rule", default: "jittered", form: "one of jittered, unjittered, immediate",
        help: "The first retry's wait: jittered (drawn like the others), unjittered (e_1 exactly, as grpc-go) or "
            + "immediate (0, as urllib3; retry k >= 2 still waits e_k).",
        choices: FirstRetry.self
    ).setByPreset({ $0.policy.firstRetry }, text: \.rawValue).setting(.firstRetry)
    static let granularity = Option<Duration?>.optional(
        "granularity", "duration", kind: .duration,
        form: "a duration greater than 0 with a unit (ns, us, ms, s, m, h), e.g. 1ms",
        help: "Floor each wait to a whole number of this unit (Envoy draws whole milliseconds: 1ms). Default: none.",
        parse: Parsers.duration
    ).setByPreset({ $0.policy.granularity.map { .some($0) } }, text: { $0?.unitText ?? "" }).setting(
        .granularity, formStatesRange: true)

    static let failureKind = Option(
        "failure-kind", "kind", default: "transient", form: "transient or throttling",
        help: "The kind of the failures: transient (5xx, timeouts) or throttling (429). A preset that backs off "
            + "from each differently (aws-sdk-standard) follows this one; simulate charges the retry quota for it.",
        choices: FailureKind.self)

    static func specs(defaultJitter: String) -> [OptionSpec] {
        [
            preset.spec, grpcServiceConfig.spec, grpcMethod.spec, config.spec, configRoute.spec,
            jitter(default: defaultJitter).spec, schedule.spec,
            base.spec, multiplier.spec, increment.spec, cap.spec,
            capMode.spec, maxAttempts.spec, maxRetries.spec, maxElapsed.spec, decorrelatedFactor.spec,
            firstRetry.spec, granularity.spec, failureKind.spec,
        ].map { $0.grouped(.policy) }
    }

    init(_ options: ParsedOptions, defaultJitter: String) throws(CommandLineError) {
        _ = try options(Self.failureKind)  // read by the start (ParsedOptions) and by simulate's scenario
        let factor = try options(Self.decorrelatedFactor)
        let jitters = try options(Self.jitter(default: defaultJitter)).map { jitter -> Jitter in
            switch jitter {
            case .decorrelated: .decorrelated(factor: factor)
            case .decorrelatedMonotone: .decorrelatedMonotone(factor: factor)
            default: jitter
            }
        }
        let capMode = try options(Self.capMode)

        let (base, multiplier, increment) = (
            try options(Self.base), try options(Self.multiplier), try options(Self.increment)
        )
        let schedule: BackoffSchedule =
            switch try options(Self.schedule) {
            case .exponential: .exponential(multiplier: multiplier)
            case .constant: .constant
            case .linear: .linear(increment: increment ?? base)
            case .immediate: .immediate
            }
        // A given count replaces the start's, however the start counts (see PolicyStart).
        if options.isGiven(Self.maxAttempts) && options.isGiven(Self.maxRetries) {
            throw .usage(
                "Use either '--max-attempts' or '--max-retries', not both (max retries N means N + 1 attempts)",
                command: options.command)
        }
        let budget: AttemptBudget
        if options.isGiven(Self.maxAttempts) {
            budget = .maxAttempts(try options(Self.maxAttempts))
        } else if let retries = try options(Self.maxRetries) {
            budget = .maxRetries(retries)
        } else {
            budget = .maxAttempts(try options(Self.maxAttempts))
        }
        let (cap, maxElapsed) = (try options(Self.cap), try options(Self.maxElapsed) ?? nil)
        let (firstRetry, granularity) = (try options(Self.firstRetry), try options(Self.granularity))
        var unused: [(option: OptionSpec, reason: String)] = []
        if case .exponential = schedule {
        } else {
            unused.append((Self.multiplier.spec, "the \(schedule.name) schedule does not use it"))
        }
        if case .linear = schedule {
        } else {
            unused.append((Self.increment.spec, "the \(schedule.name) schedule does not use it"))
        }
        if !jitters.contains(where: { $0.decorrelatedFactor != nil }) {
            unused.append((Self.decorrelatedFactor.spec, "no jitter mode is decorrelated"))
        }
        warnings =
            unused.filter { options.givenText($0.option.name) != nil }
            .map { "'--\($0.option.name)' has no effect: \($0.reason); ignored" }
            + options.startOptionsLeftOut.map { "\($0) does not apply to '\(options.command)'; left out" }
            + (options.start?.remarks ?? [])
            + (options.isGiven(Self.grpcMethod) && !options.isGiven(Self.grpcServiceConfig)
                ? ["'--grpc-method' has no effect without '--grpc-service-config'; ignored"] : [])
            + (options.isGiven(Self.configRoute) && !options.isGiven(Self.config)
                ? ["'--config-route' has no effect without '--config'; ignored"] : [])

        var policies: [BackoffPolicy] = []
        for jitter in jitters {
            // The start's cap rule stays with a jitter given only if that jitter takes it.
            let capMode =
                options.isGiven(Self.capMode) ? capMode : capMode.flatMap { jitter.capModes.contains($0) ? $0 : nil }
            do {
                policies.append(
                    try BackoffPolicy(
                        base: base, schedule: schedule, cap: cap, jitter: jitter, capMode: capMode, budget: budget,
                        maxElapsed: maxElapsed, firstRetry: firstRetry, granularity: granularity))
            } catch {
                throw Self.usageError(error, options: options)
            }
        }
        self.policies = policies
    }

    /// The policy's error, reported against the option that sets the parameter it concerns (found by
    /// the declarations: the one given, else the one the start set, else the first declared), quoting
    /// the value. An error of a parameter's own range needs no words when the option's form states
    /// the range.
    private static func usageError(_ error: PolicyError, options: ParsedOptions) -> CommandLineError {
        if case .capBelowBase(let cap, _) = error, options.isGiven(Self.base) && !options.isGiven(Self.cap) {
            // Blame the option the user gave: a base above the default cap is the base's fault.
            let origin = options.origin(of: Self.cap.spec) ?? "given"
            return options.invalid(
                Self.base.spec, detail: "the base must be at most the cap (\(cap.unitText), \(origin))")
        }
        let candidates = options.specs.filter { $0.parameter == .policy(error.parameter) }
        guard let first = candidates.first else { return .usage("\(error)", command: options.command) }
        let spec = candidates.first(where: options.isGiven) ?? candidates.first(where: options.isSet) ?? first
        let detail: String? =
            switch error {
            case .capBelowBase(_, let base): "the cap must be at least the base (\(base.unitText))"
            default: error.isOutsideOwnRange && spec.formStatesRange ? nil : "\(error)"
            }
        return options.invalid(spec, detail: detail)
    }
}
