import BackoffPolicies
import EventSimulation
import RetrySimulation

/// The options of `backoff simulate` that describe the server and the clients' behaviour, and the
/// scenario they make for each policy. Validated before anything runs; options that do not apply
/// to the chosen server produce warnings, not silence.
struct ScenarioOptions {
    let server: ServerModel
    let serverText: String
    let arrivals: Arrivals
    let permanentFraction: Double
    let retryAfter: RetryAfterHandling
    let retryTrigger: RetryTrigger
    let requestsPerClient: Int
    let thinkTime: Int64
    let onGiveUp: GiveUpBehavior
    let attemptTimeout: Int64?
    let limits: RetryLimits
    /// Remarks for stderr: options that have no effect here.
    let warnings: [String]

    static let specs: [OptionSpec] = [
        OptionSpec(
            name: "server", valueName: "model",
            help: "Server model: always-fail, bernoulli:P, outage:DURATION, contention or capacity.",
            defaultValue: "outage:2s", form: ServerSpec.form),
        OptionSpec(
            name: "server-retry-after", valueName: "duration",
            help: "Retry-After sent with bernoulli and outage failures: a duration, recovery (the time left in the outage), or none.",
            defaultValue: "none", form: "a duration with a unit (e.g. 500ms), recovery, or none"),
        OptionSpec(
            name: "hop", valueName: "duration", help: "contention: mean of one network hop, |N(mean, sd)|.",
            defaultValue: "10ms", form: OptionSpec.durationForm),
        OptionSpec(
            name: "hop-sd", valueName: "duration", help: "contention: standard deviation of one network hop.",
            defaultValue: "2ms", form: OptionSpec.durationForm),
        OptionSpec(
            name: "workers", valueName: "count", help: "capacity: workers serving attempts in parallel.",
            defaultValue: "4", form: "a whole number >= 1, e.g. 4"),
        OptionSpec(
            name: "service", valueName: "distribution",
            help: "capacity: service time, fixed:D, exp:MEAN or lognormal:MEAN:SD.",
            defaultValue: "exp:20ms", form: "fixed:DURATION, exp:MEAN or lognormal:MEAN:SD with durations greater than 0, e.g. exp:20ms"),
        OptionSpec(
            name: "queue", valueName: "count", help: "capacity: attempts that may wait for a worker; more are rejected at once.",
            defaultValue: "100", form: "a whole number >= 0, e.g. 100"),
        OptionSpec(
            name: "reject-retry-after", valueName: "duration", help: "capacity: Retry-After sent with a rejection, or none.",
            defaultValue: "none", form: "a duration with a unit (e.g. 1s), or none"),
        OptionSpec(
            name: "degrade-from", valueName: "duration", help: "capacity: start of the degradation window (the overload trigger).",
            defaultValue: nil, form: OptionSpec.durationForm),
        OptionSpec(
            name: "degrade-until", valueName: "duration", help: "capacity: end of the degradation window.",
            defaultValue: nil, form: "a duration after --degrade-from, e.g. 3s"),
        OptionSpec(
            name: "degrade-to", valueName: "number",
            help: "capacity: capacity during the window, as a fraction (service times are divided by it).",
            defaultValue: "0.25", form: "a number in (0, 1], e.g. 0.25"),
        OptionSpec(
            name: "timeout", valueName: "duration",
            help: "capacity: the client's per-attempt timeout (a timed-out attempt fails; the server still does the work), or none.",
            defaultValue: "none", form: "a duration greater than 0 (e.g. 200ms), or none"),
        OptionSpec(
            name: "arrivals", valueName: "process",
            help: "When sessions start: burst (all at 0), uniform:WINDOW, or poisson:RATE per second over --duration.",
            defaultValue: "burst", form: "burst, uniform:DURATION (e.g. uniform:1s) or poisson:RATE with RATE > 0 (e.g. poisson:500)"),
        OptionSpec(
            name: "duration", valueName: "duration", help: "poisson arrivals: how long clients keep arriving.",
            defaultValue: "10s", form: "a duration greater than 0, e.g. 10s"),
        OptionSpec(
            name: "permanent", valueName: "fraction",
            help: "Fraction of requests that meet a permanent error (404, 401) at their first attempt and are not retried.",
            defaultValue: "0", form: "a number in [0, 1], e.g. 0.05"),
        OptionSpec(
            name: "retry-after", valueName: "mode",
            help: "Handling of server delays: ignore, honor (wait the server's delay), or max (the longer of it and the backoff).",
            defaultValue: "ignore", form: "one of ignore, honor, max"),
        OptionSpec(
            name: "retry-trigger", valueName: "trigger",
            help: "What starts a retry: timer (the backoff), or recovery[:DELAY] (the server's recovery signal plus U(0, DELAY)).",
            defaultValue: "timer", form: "timer, recovery or recovery:DURATION (e.g. recovery:50ms)"),
        OptionSpec(
            name: "requests-per-client", valueName: "count", help: "Requests each client sends in sequence (a session).",
            defaultValue: "1", form: "a whole number >= 1, e.g. 10"),
        OptionSpec(
            name: "think", valueName: "duration", help: "Pause between the end of a request and the next one of the session.",
            defaultValue: "0ms", form: "a duration with a unit, e.g. 100ms"),
        OptionSpec(
            name: "budget", valueName: "budget",
            help: "Retry budget shared by all clients: none, token (gRPC), aws-quota, ratio (Finagle) or concurrency (Envoy).",
            defaultValue: "none", form: LimitSpec.budgetForm),
        OptionSpec(
            name: "breaker", valueName: "breaker", help: "Circuit breaker shared by all clients: none or on[:parameters].",
            defaultValue: "none", form: LimitSpec.breakerForm),
        OptionSpec(
            name: "throttle", valueName: "throttle", help: "Adaptive client-side throttling (SRE book): none or adaptive[:k=K].",
            defaultValue: "none", form: LimitSpec.throttleForm),
        OptionSpec(
            name: "on-give-up", valueName: "mode",
            help: "When a request exhausts its retries: end-session (its session stops for good) or continue (only it is lost).",
            defaultValue: "end-session", form: "end-session or continue"),
    ]

    /// The recovery trigger's notification delay when none is given.
    static let defaultNotificationDelay: Int64 = 10_000_000

    init(_ options: ParsedOptions) throws(CommandLineError) {
        var warnings: [String] = []
        func duration(_ name: String) throws(CommandLineError) -> Int64 {
            Int64(try options.required(name, ValueParser.duration).nanoseconds)
        }
        func optionalDuration(_ name: String, positive: Bool = false) throws(CommandLineError) -> Int64? {
            guard let text = options.text(name), text != "none" else { return nil }
            return Int64(try options.required(name, ValueParser.duration, where: { !positive || $0 > .zero }).nanoseconds)
        }

        let serverText = options.text("server")!
        guard let kind = ServerSpec.model(serverText) else {
            let name = String(serverText.prefix { $0 != ":" })
            let detail = ServerSpec.names.contains(name) ? nil : Suggestion.closest(to: name, among: ServerSpec.names)
                .map { "unknown model '\(name)' (did you mean '\($0)'?)" }
            throw options.invalid("server", serverText, detail: detail)
        }
        let retryAfterText = options.text("server-retry-after")!
        let serverRetryAfter: RetryAfter?
        switch retryAfterText {
        case "none": serverRetryAfter = nil
        case "recovery": serverRetryAfter = .untilRecovery
        default: serverRetryAfter = .fixed(try duration("server-retry-after"))
        }

        var server = kind
        var applies: Set<String> = []
        switch kind {
        case .bernoulli(let p, _):
            if serverRetryAfter == .untilRecovery {
                throw options.invalid("server-retry-after", retryAfterText, detail: "bernoulli failures have no recovery time")
            }
            server = .bernoulli(failureProbability: p, retryAfter: serverRetryAfter)
            applies = ["server-retry-after"]
        case .outage(let end, _):
            server = .outage(until: end, retryAfter: serverRetryAfter)
            applies = ["server-retry-after"]
        case .contention:
            server = .contention(hop: NetworkDelay(mean: try duration("hop"), standardDeviation: try duration("hop-sd")))
            applies = ["hop", "hop-sd"]
        case .capacity:
            server = .capacity(try Self.capacity(options))
            applies = ["workers", "service", "queue", "reject-retry-after", "degrade-from", "degrade-until", "degrade-to", "timeout"]
        case .alwaysFail:
            break
        }
        let serverOnly = ["server-retry-after", "hop", "hop-sd", "workers", "service", "queue", "reject-retry-after",
                          "degrade-from", "degrade-until", "degrade-to", "timeout"]
        for name in serverOnly where options.isGiven(name) && !applies.contains(name) {
            warnings.append("'--\(name)' does not apply to the \(ServerSpec.names.first { serverText.hasPrefix($0) } ?? serverText) server; ignored")
        }
        self.server = server
        self.serverText = ServerSpec.text(server)

        let arrivalsText = options.text("arrivals")!
        let parts = arrivalsText.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("burst", 1):
            arrivals = .burst
        case ("uniform", 2):
            guard let window = ValueParser.duration(parts[1]), window > .zero else { throw options.invalid("arrivals", arrivalsText) }
            arrivals = .uniform(window: Int64(window.nanoseconds))
        case ("poisson", 2):
            guard let rate = ValueParser.number(parts[1]), rate > 0 else { throw options.invalid("arrivals", arrivalsText) }
            let span = try options.required("duration", ValueParser.duration, where: { $0 > .zero })
            arrivals = .poisson(ratePerSecond: rate, duration: Int64(span.nanoseconds))
        default:
            throw options.invalid("arrivals", arrivalsText)
        }
        if options.isGiven("duration"), case .poisson = arrivals {} else if options.isGiven("duration") {
            warnings.append("'--duration' applies to poisson arrivals only; ignored")
        }
        if case .poisson = arrivals, options.isGiven("clients") {
            warnings.append("'--clients' is ignored with poisson arrivals: the process decides how many arrive")
        }

        permanentFraction = try options.required("permanent", ValueParser.number, where: { (0...1).contains($0) })
        retryAfter = try options.required("retry-after") { RetryAfterHandling(rawValue: $0) }
        if retryAfter != .ignore && !server.sendsRetryAfter {
            warnings.append("'--retry-after \(retryAfter.rawValue)' has no effect: this server sends no Retry-After "
                + "(see --server-retry-after and --reject-retry-after)")
        }
        let triggerText = options.text("retry-trigger")!
        if triggerText == "timer" {
            retryTrigger = .timer
        } else if triggerText == "recovery" {
            retryTrigger = .recovery(notificationDelay: Self.defaultNotificationDelay)
        } else if triggerText.hasPrefix("recovery:"), let delay = ValueParser.duration(String(triggerText.dropFirst(9))) {
            retryTrigger = .recovery(notificationDelay: Int64(delay.nanoseconds))
        } else {
            throw options.invalid("retry-trigger", triggerText)
        }
        if case .recovery = retryTrigger, server.recoveryTime == nil {
            throw options.invalid(
                "retry-trigger", triggerText,
                detail: "the recovery trigger needs a server that recovers (outage, or capacity with --degrade-from/--degrade-until)")
        }
        requestsPerClient = try options.required("requests-per-client", ValueParser.integer, where: { $0 >= 1 })
        thinkTime = try duration("think")
        onGiveUp = try options.required("on-give-up") { GiveUpBehavior(rawValue: $0) }
        attemptTimeout = applies.contains("timeout") ? try optionalDuration("timeout", positive: true) : nil
        limits = RetryLimits(
            budget: try options.required("budget", LimitSpec.budget),
            breaker: try options.required("breaker", LimitSpec.breaker),
            throttle: try options.required("throttle", LimitSpec.throttle))
        self.warnings = warnings
    }

    private static func capacity(_ options: ParsedOptions) throws(CommandLineError) -> CapacityModel {
        let workers = try options.required("workers", ValueParser.integer, where: { $0 >= 1 })
        let queue = try options.required("queue", ValueParser.integer)
        let service = try options.required("service", Self.serviceTime)
        let rejectText = options.text("reject-retry-after")!
        let reject = rejectText == "none" ? nil : Int64(try options.required("reject-retry-after", ValueParser.duration).nanoseconds)
        var degradation: CapacityModel.Degradation?
        switch (options.isGiven("degrade-from"), options.isGiven("degrade-until")) {
        case (true, true):
            let from = try options.required("degrade-from", ValueParser.duration)
            let until = try options.required("degrade-until", ValueParser.duration)
            guard until > from else {
                throw options.invalid("degrade-until", options.text("degrade-until")!,
                                      detail: "the degradation window ends before it starts (--degrade-from \(options.text("degrade-from")!))")
            }
            let fraction = try options.required("degrade-to", ValueParser.number, where: { $0 > 0 && $0 <= 1 })
            degradation = CapacityModel.Degradation(
                start: VirtualTime(nanoseconds: Int64(from.nanoseconds)), end: VirtualTime(nanoseconds: Int64(until.nanoseconds)),
                fraction: fraction)
        case (false, false):
            degradation = nil
        default:
            throw .usage("A degradation window needs both '--degrade-from' and '--degrade-until'", command: "simulate")
        }
        return CapacityModel(workers: workers, serviceTime: service, queueLimit: queue, rejectionRetryAfter: reject, degradation: degradation)
    }

    /// `fixed:D`, `exp:MEAN` or `lognormal:MEAN:SD`: times greater than 0 (the lognormal's sd may be 0).
    static func serviceTime(_ text: String) -> ServiceTime? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let times = parts.dropFirst().compactMap { ValueParser.duration($0).map { Int64($0.nanoseconds) } }
        guard times.count == parts.count - 1, let first = times.first, first > 0 else { return nil }
        switch (parts[0], times.count) {
        case ("fixed", 1): return .deterministic(first)
        case ("exp", 1): return .exponential(mean: first)
        case ("lognormal", 2): return .lognormal(mean: first, standardDeviation: times[1])
        default: return nil
        }
    }

    /// The scenario for one policy.
    func scenario(policy: BackoffPolicy, clients: Int, bucketWidth: Int64) throws(SimulationError) -> Scenario {
        try Scenario(
            clients: clients, server: server, policy: policy, bucketWidth: bucketWidth, arrivals: arrivals,
            permanentFraction: permanentFraction, retryAfter: retryAfter, retryTrigger: retryTrigger,
            requestsPerClient: requestsPerClient, thinkTime: thinkTime, onGiveUp: onGiveUp, attemptTimeout: attemptTimeout,
            limits: limits)
    }
}
