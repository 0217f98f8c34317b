import BackoffPolicies
import EventSimulation
import RetrySimulation

/// The declarations of `backoff simulate`'s scenario options: each option's name, default, form
/// and parser. Parsers check the syntax; `Scenario.init` checks the ranges.
extension ScenarioOptions {
    static let clients = Option(
        "clients", "count", kind: .count, default: "1000", form: Parsers.countForm(clientRange, example: 1000),
        help:
            "Clients N (sessions); with burst arrivals all start at t = 0. Up to 268,435,455, or 2^40 in a burst whose "
            + "clients do not interact (an always-fail, bernoulli, outage or trace server; no limits, no layers).",
        parse: Parsers.count(in: clientRange)
    ).setting(.clients, formStatesRange: true).grouped(.clients)
    /// Clients one run holds (see ``Scenario/maximumClients``; ``Scenario/maximumIndependentClients``
    /// when they do not interact, which `Scenario.init` checks).
    static let clientRange = 1...Scenario.maximumIndependentClients
    static let server = Option(
        "server", "model", kind: .serverModel, default: "outage:2s", form: ServerSpec.form,
        help:
            "Server model: always-fail, bernoulli:P, outage:DURATION, contention, capacity, or trace:FILE (an incident: "
            + "time_s,failure_probability[,retry_after_s], a step function).", parse: ServerSpec.parse
    ).setting(.server, formStatesRange: true).grouped(.server).completing(ServerSpec.completions)
    static let serverRetryAfter = Option(
        "server-retry-after", "duration", kind: .duration, default: "none",
        form: "a duration with a unit (e.g. 500ms), recovery, or none",
        help:
            "Retry-After sent with bernoulli and outage failures: a duration, recovery (the time left in the outage), or none.",
        parse: { text throws(InvalidValue) -> RetryAfter? in
            text == "recovery" ? .untilRecovery : try Parsers.durationOrNone(text).map { .fixed($0) }
        }
    ).setting(.serverRetryAfter).grouped(.server)
    static let hop = Option(
        "hop", "duration", kind: .duration, default: "10ms", form: OptionSpec.durationForm,
        help: "contention: mean of one network hop, |N(mean, sd)|.", parse: Parsers.duration
    ).setting(.networkDelay).grouped(.server)
    static let hopSD = Option(
        "hop-sd", "duration", kind: .duration, default: "2ms", form: OptionSpec.durationForm,
        help: "contention: standard deviation of one network hop.", parse: Parsers.duration
    ).setting(.networkDelay).grouped(.server)
    static let workers = Option(
        "workers", "count", kind: .count, default: "4", form: Parsers.countForm(1...1_000_000, example: 4),
        help: "capacity: workers serving attempts in parallel.", parse: Parsers.count(in: 1...1_000_000)
    ).setting(.workers, formStatesRange: true).grouped(.server)
    /// Optional (1 when not given), like `--hedge`: an option with a default enters every sweep
    /// point's seed, so declaring one would have moved the seeds of every sweep made before it.
    static let replicas = Option<Int?>.optional(
        "replicas", "count", kind: .count, form: Parsers.countForm(1...CapacityModel.maximumReplicas, example: 20),
        help: "capacity: replicas, each with --workers and its own --queue, behind a uniform random balancer "
            + "(1 when not given).",
        parse: Parsers.count(in: 1...CapacityModel.maximumReplicas)
    ).setting(.replicas, formStatesRange: true).grouped(.server)
    static let service = Option(
        "service", "distribution", default: "exp:20ms",
        form: ServiceTimeSpec.form,
        help:
            "capacity: service time, fixed:D, exp:MEAN, lognormal:MEAN:SD or mixture:W1@DIST1;W2@DIST2;... (weights sum to 1).",
        parse: ServiceTimeSpec.parse
    ).setting(.serviceTime, formStatesRange: true).grouped(.server)
    static let queue = Option(
        "queue", "count", kind: .count, default: "100", form: Parsers.countForm(0...1_000_000_000, example: 100),
        help: "capacity: attempts that may wait for a worker; more are rejected at once.",
        parse: Parsers.count(in: 0...1_000_000_000)
    ).setting(.queue, formStatesRange: true).grouped(.server)
    static let dropExpired = Option<Bool>.flag(
        "drop-expired",
        help:
            "capacity: a worker drops a queued attempt whose caller has stopped waiting (its --timeout, a layer's "
            + "timeout, a hedge's answered request) instead of serving it: the deadline-checking server gRPC "
            + "recommends (M/M/c+D). Counted in expired_drops; without it that work is served and counted in "
            + "wasted_work."
    ).grouped(.server)
    /// Optional, so that a run without it (FIFO) keeps every sweep point's seed as it was.
    static let queueDiscipline = Option<QueueDiscipline?>.optional(
        "queue-discipline", "discipline", form: QueueDisciplineSpec.form,
        help: "capacity: the order in which a free worker takes queued attempts: fifo (when not given); lifo "
            + "(newest first); adaptive-lifo[:interval=D] (FIFO, then LIFO once the queue has not been empty for D, "
            + "100ms); or codel[:target=T][:interval=D], Facebook's controlled delay (once the queue has not been "
            + "empty for D, 100ms, a worker sheds an attempt that waited longer than T, 5ms, and otherwise one that "
            + "waited longer than D: it answers it at once with a failure its caller may retry, counted in rejected).",
        parse: QueueDisciplineSpec.parse
    ).setting(.queueDiscipline).grouped(.server)
    static let rejectRetryAfter = Option(
        "reject-retry-after", "duration", kind: .duration, default: "none",
        form: "a duration with a unit (e.g. 1s), or none",
        help: "capacity: Retry-After sent with a rejection, or none.", parse: Parsers.durationOrNone
    ).setting(.rejectionRetryAfter).grouped(.server)
    static let degradeFrom = Option<Duration?>.optional(
        "degrade-from", "duration", kind: .duration, form: OptionSpec.durationForm,
        help: "capacity: start of the degradation window (the overload trigger).", parse: Parsers.duration
    ).grouped(.server)
    static let degradeUntil = Option<Duration?>.optional(
        "degrade-until", "duration", kind: .duration, form: "a duration after --degrade-from, e.g. 3s",
        help: "capacity: end of the degradation window.", parse: Parsers.duration
    ).setting(.degradationEnd).grouped(.server)
    static let degradeTo = Option(
        "degrade-to", "number", kind: .number, default: "0.25", form: "a number in (0, 1], e.g. 0.25",
        help: "capacity: capacity during the window, as a fraction (service times are divided by it).",
        parse: Parsers.number
    ).setting(.degradedCapacity, formStatesRange: true).grouped(.server)
    static let capacityTrace = Option<StepFunction<Double>?>.optional(
        "capacity-trace", "file",
        form: "a CSV file with the columns time_s,capacity_factor (factors > 0, times from 0 on)",
        help: "capacity: capacity over time from an incident, a CSV of time_s,capacity_factor (a step function; "
            + "service times are divided by the factor); instead of --degrade-*.",
        parse: { path throws(InvalidValue) in try TraceFile.capacityProfile(path: path) }
    ).setting(.capacityProfile).grouped(.server)
    static let timeout = Option(
        "timeout", "duration", kind: .duration, default: "none",
        form: "a duration greater than 0 (e.g. 200ms), or none",
        help:
            "capacity: the client's per-attempt timeout (a timed-out attempt fails; the server still does the work), or none.",
        parse: Parsers.durationOrNone
    ).setting(.timeout, formStatesRange: true).grouped(.clients)
    /// Optional, so that a run without it keeps every sweep point's seed as it was.
    static let patience = Option<Duration?>.optional(
        "patience", "duration", kind: .duration,
        form: "a duration greater than 0 and at most \(ValueParser.horizonText), e.g. 200ms",
        help: "capacity: instead of --timeout's fixed one, a per-attempt timeout drawn anew for each attempt, "
            + "exponential with this mean (Erlang-A's patience; with --drop-expired and one attempt the shares "
            + "answered, dropped and late are ErlangAQueue's closed form).",
        parse: Parsers.form(ValueParser.duration, where: { $0 > .zero })
    ).setting(.patience, formStatesRange: true).grouped(.clients)
    static let arrivals = Option(
        "arrivals", "process", default: "burst",
        form: ArrivalsSpec.form,
        help: "When sessions start: burst (all at 0), uniform:WINDOW, or poisson:RATE per second over --duration.",
        parse: ArrivalsSpec.parse
    ).setting(.arrivals, formStatesRange: true).grouped(.clients)
    static let duration = Option(
        "duration", "duration", kind: .duration, default: "10s", form: "a duration greater than 0, e.g. 10s",
        help: "poisson arrivals: how long clients keep arriving.", parse: Parsers.duration
    ).setting(.arrivalDuration, formStatesRange: true).grouped(.clients)
    static let permanent = Option(
        "permanent", "fraction", kind: .number, default: "0", form: "a number in [0, 1], e.g. 0.05",
        help: "Fraction of requests that meet a permanent error (404, 401) at their first attempt and are not retried.",
        parse: Parsers.number
    ).setting(.permanentFraction, formStatesRange: true).grouped(.clients)
    static let retryAfter = Option(
        "retry-after", "mode", default: "ignore", form: "one of ignore, honor, max",
        help:
            "Handling of server delays: ignore, honor (wait the server's delay), or max (the longer of it and the backoff).",
        choices: RetryAfterHandling.self
    ).setByPreset({ $0.retryAfterHandling == .ignore ? nil : $0.retryAfterHandling }, text: \.rawValue).grouped(.policy)
    static let retryTrigger = Option(
        "retry-trigger", "trigger", default: "timer", form: "timer, recovery or recovery:DURATION (e.g. recovery:50ms)",
        help:
            "What starts a retry: timer (the backoff), or recovery[:DELAY] (the server's recovery signal plus U(0, DELAY)).",
        parse: Parsers.form(parseTrigger)
    ).setting(.retryTrigger).grouped(.policy)
    static let requestsPerClient = Option(
        "requests-per-client", "count", kind: .count, default: "1",
        form: Parsers.countForm(1...1_000_000_000, example: 10),
        help: "Requests each client sends in sequence (a session).", parse: Parsers.count(in: 1...1_000_000_000)
    ).setting(.requestsPerClient, formStatesRange: true).grouped(.clients)
    static let think = Option(
        "think", "duration", kind: .duration, default: "0ms", form: "a duration with a unit, e.g. 100ms",
        help: "Pause between the end of a request and the next one of the session.", parse: Parsers.duration
    ).setting(.thinkTime).grouped(.clients)
    static let budget = Option(
        "budget", "budget", default: "none", form: BudgetSpec.form,
        help:
            "Retry budget shared by all clients: none, token (gRPC), aws-quota, ratio (Finagle) or concurrency (Envoy).",
        parse: BudgetSpec.parse
    ).setByPreset({ $0.budget.map { .some($0) } }, text: { BudgetSpec.print($0 ?? nil) }).grouped(.limits)
    static let breaker = Option(
        "breaker", "breaker", default: "none", form: BreakerSpec.form,
        help: "Circuit breaker shared by all clients: none or on[:parameters].", parse: BreakerSpec.parse
    ).grouped(.limits)
    static let throttle = Option(
        "throttle", "throttle", default: "none", form: ThrottleSpec.form,
        help: "Client-side throttling: none, adaptive[:k=K] (the SRE book's: refuses attempts locally) or "
            + "aws-adaptive[:sdk=SDK][:scope=shared|per-client] (the AWS SDKs' adaptive rate limiter: delays attempts "
            + "for tokens; SDK is botocore, go-v2, smithy-swift or java-v2).",
        parse: ThrottleSpec.parse
    ).setByPreset(
        { $0.adaptiveRateLimiter.map { .some(.awsAdaptive($0)) } }, text: { ThrottleSpec.print($0 ?? nil) }
    ).grouped(.limits)
    /// Optional (none when not given), for the reason `--replicas` is.
    static let hedge = Option<Hedging??>.optional(
        "hedge", "hedge", form: HedgeSpec.form,
        help: "capacity: hedged requests: none (when not given), or on:delay=D[:max-attempts=N][:cancel=yes|no] (copy "
            + "k of an attempt goes (k - 1) x D after the first, to a replica no copy used, unless an answer came; a "
            + "rejection sends the next at once; the first success wins and, with cancel=yes, stops the others' work); "
            + "or on:percentile=Q[:cancel=yes|no], Finagle's backup requests (one backup, at the Q-th percentile of the "
            + "copies' latencies over 30 s refreshed every 3 s, none in the first 3 s, within a budget of 1 - Q backups "
            + "per request plus 10 a second); or on:per-try-timeout=T[:max-attempts=N][:backoff-base=B][:backoff-max=M], "
            + "Envoy's hedge_on_per_try_timeout (a copy unanswered after T stays, and the next goes after a backoff of "
            + "whole ms below min(B 2^(k-1), M), B 25ms and M 10 x B by default; a failure also backs off; a hedge is a "
            + "retry: N is num_retries + 1). cancel-delay=D: the cancellation reaches the server D after the answer. "
            + "With --budget a copy after the first is a retry to it (gRPC's token bucket: only above half its tokens). "
            + "With --layer (any server; not a percentile) each copy is a request to the top layer, a loser's cancelled "
            + "down the stack; the layer report's clients row counts the copies.",
        parse: HedgeSpec.parse
    ).setting(.hedge).setByPreset({ $0.hedging.map { .some(.some($0)) } }, text: { HedgeSpec.print($0 ?? nil) })
        .grouped(
            .layers)
    static let onGiveUp = Option(
        "on-give-up", "mode", default: "end-session", form: "end-session or continue",
        help:
            "When a request exhausts its retries: end-session (its session stops for good) or continue (only it is lost).",
        choices: GiveUpBehavior.self
    ).grouped(.clients)
    static let bucket = Option(
        "bucket", "duration", kind: .duration, default: "10ms",
        form: "a duration greater than 0 with a unit, e.g. 10ms",
        help: "Width of a load timeline bucket.", parse: Parsers.form(ValueParser.duration, where: { $0 > .zero })
    ).setting(.bucket, formStatesRange: true).grouped(.output)

    /// The scenario options in help order (after the policy's, `--clients` first and `--bucket` last).
    static let specs: [OptionSpec] = [
        server.spec, serverRetryAfter.spec, hop.spec, hopSD.spec, workers.spec, replicas.spec, service.spec,
        queue.spec, dropExpired.spec, rejectRetryAfter.spec,
        degradeFrom.spec, degradeUntil.spec, degradeTo.spec, capacityTrace.spec, timeout.spec, arrivals.spec,
        duration.spec, permanent.spec,
        retryAfter.spec, retryTrigger.spec, requestsPerClient.spec, think.spec, budget.spec, breaker.spec,
        throttle.spec,
        onGiveUp.spec, hedge.spec, queueDiscipline.spec, patience.spec, balancer.spec, hostFault.spec,
        retryHostPredicate.spec, outlierDetection.spec, limit.spec,
    ]

    /// The options that describe one server model only.
    static let serverOnly: [OptionSpec] = [
        serverRetryAfter.spec, hop.spec, hopSD.spec, workers.spec, replicas.spec, service.spec, queue.spec,
        dropExpired.spec, rejectRetryAfter.spec, degradeFrom.spec, degradeUntil.spec, degradeTo.spec,
        capacityTrace.spec, timeout.spec, queueDiscipline.spec, patience.spec, balancer.spec, hostFault.spec,
        retryHostPredicate.spec, outlierDetection.spec,
    ]
}
