import BackoffPolicies
import EventSimulation
import RetrySimulation

/// The options of `backoff simulate` that describe the server and the clients, and the scenarios
/// they make: one per policy, built by `Scenario.init`, whose range checks are the only ones. Its
/// errors are reported against the option they concern. Options that do not apply to the chosen
/// server produce warnings, not silence.
struct ScenarioOptions {
    let scenarios: [Scenario]
    /// Remarks for stderr: options that have no effect here.
    let warnings: [String]

    /// The recovery trigger's notification delay when none is given.
    static let defaultNotificationDelay: Duration = .milliseconds(10)

    /// - Parameter stack: the layers and the deadline (`simulate` only), the layers given per policy.
    init(_ options: ParsedOptions, policies: [BackoffPolicy], stack: LayerOptions? = nil) throws(CommandLineError) {
        var warnings: [String] = []
        // Every value given is parsed, whether or not it applies (then it is named in a warning):
        // a bad value is an error even where it would have no effect.
        _ = (
            try options(Self.serverRetryAfter), try options(Self.hop), try options(Self.hopSD),
            try options(Self.workers), try options(Self.replicas),
            try options(Self.service), try options(Self.queue), try options(Self.rejectRetryAfter),
            try options(Self.degradeFrom),
            try options(Self.degradeUntil), try options(Self.degradeTo), try options(Self.capacityTrace),
            try options(Self.timeout), try options(Self.patience),
            try options(Self.duration)
        )
        let (server, applies) = try Self.server(options)
        let serverName =
            ServerSpec.names.first { options.text(Self.server)!.hasPrefix($0) } ?? options.text(Self.server)!
        for spec in Self.serverOnly where options.givenText(spec.name) != nil && !applies.contains(spec.name) {
            warnings.append("'--\(spec.name)' does not apply to the \(serverName) server; ignored")
        }
        let arrivals: Arrivals =
            switch try options(Self.arrivals) {
            case .burst: .burst
            case .uniform(let window): .uniform(window: window)
            case .poisson(let rate): .poisson(ratePerSecond: rate, duration: try options(Self.duration))
            }
        if options.isGiven(Self.duration), case .poisson = arrivals {
        } else if options.isGiven(Self.duration) {
            warnings.append("'--duration' applies to poisson arrivals only; ignored")
        }
        if case .poisson = arrivals, options.isGiven(Self.clients) {
            warnings.append("'--clients' is ignored with poisson arrivals: the process decides how many arrive")
        }
        let retryAfter = try options(Self.retryAfter)
        if retryAfter != .ignore && !server.sendsRetryAfter {
            warnings.append(
                "'--retry-after \(retryAfter.rawValue)' has no effect: this server sends no Retry-After "
                    + "(see --server-retry-after and --reject-retry-after)")
        }
        let timeout = applies.contains(Self.timeout.name) ? try options(Self.timeout) : nil
        let patience = applies.contains(Self.patience.name) ? try options(Self.patience) : nil
        var limits = RetryLimits(budget: try options(Self.budget), breaker: try options(Self.breaker))
        switch try options(Self.throttle) {
        case .sre(let throttle): limits.throttle = throttle
        case .awsAdaptive(let limiter): limits.rateLimiter = limiter
        case nil: break
        }
        limits.concurrencyLimit = try options(Self.limit) ?? nil
        let (clients, bucket) = (try options(Self.clients), try options(Self.bucket))
        let (permanent, trigger) = (try options(Self.permanent), try options(Self.retryTrigger))
        let (requests, think, onGiveUp) = (
            try options(Self.requestsPerClient), try options(Self.think), try options(Self.onGiveUp)
        )

        var hedging = try options(Self.hedge) ?? nil
        // A hedge given where copies cannot run is the scenario's error; one from a preset or a
        // service config is a remark there, and the run goes without it.
        let hasLayers = stack?.layers.contains { !$0.isEmpty } ?? false
        if let hedge = hedging, !options.isGiven(Self.hedge) {
            // Copies run side by side on a capacity server's replicas, or as requests to a top layer.
            var runsCopies = false
            if hasLayers {
                if case .percentile = hedge.rule {} else { runsCopies = true }
            } else if case .capacity = server {
                runsCopies = true
            }
            if !runsCopies {
                warnings.append(
                    "the start's hedge ('--hedge \(HedgeSpec.print(hedge))') has no effect: hedging needs --server "
                        + "capacity, or --layer and a delay or per-try timeout; ignored")
                hedging = nil
            }
        }
        if let hedge = hedging, case .percentile = hedge.rule {
            // Finagle's start (no backup for 3 s, then after 1 ms until the first flushed interval
            // is read at 12 s) is all a shorter run shows.
            let arrivalsEnd: Duration =
                switch arrivals {
                case .burst: .zero
                case .uniform(let window): window
                case .poisson(_, let duration): duration
                }
            if arrivalsEnd < .seconds(12) {
                warnings.append(
                    "'--hedge \(HedgeSpec.print(hedge))': Finagle sends no backup in its first 3 s and backs up after "
                        + "1 ms until its latency histogram is first read at 12 s; "
                        + (arrivalsEnd == .zero
                            ? "the clients all arrive at 0" : "the arrivals end at \(arrivalsEnd.unitText)")
                        + ", so the run shows that start, not the steady state")
            }
        }
        let failureKind = try options(PolicyOptions.failureKind)
        if let kind = server.failureKind, options.isGiven(PolicyOptions.failureKind), kind != failureKind {
            throw .usage(
                "'--failure-kind \(failureKind.rawValue)' does not fit '--server \(ServerSpec.print(server))': its failures "
                    + "are \(kind.rawValue) errors", command: options.command)
        }
        var scenarios: [Scenario] = []
        if let stack, let bottom = stack.layers.first?.last, bottom.timeout != nil, server.answersAtOnce {
            warnings.append(
                "the bottom layer's timeout (layer '\(bottom.name)') has no effect: the \(serverName) server answers "
                    + "at once")
        }
        for (index, policy) in policies.enumerated() {
            do {
                scenarios.append(
                    try Scenario(
                        clients: clients, server: server, policy: policy, bucketWidth: bucket, arrivals: arrivals,
                        permanentFraction: permanent, retryAfter: retryAfter, retryTrigger: trigger,
                        requestsPerClient: requests,
                        thinkTime: think, onGiveUp: onGiveUp, attemptTimeout: timeout, limits: limits,
                        failureKind: failureKind, layers: stack?.layers[index] ?? [], deadline: stack?.deadline,
                        propagatesDeadline: stack?.propagatesDeadline ?? false, hedging: hedging, patience: patience))
            } catch {
                throw Self.usageError(error, options: options)
            }
        }
        if case .capacity(let model) = server, model.dropsExpired, timeout == nil, patience == nil, hedging == nil,
            !(stack?.layers.joined().contains { $0.timeout != nil } ?? false)
        {
            warnings.append(
                "'--drop-expired' has no effect: every caller waits for its attempt (no --timeout, --patience, layer "
                    + "timeout or hedge)")
        }
        if case .capacity(let model) = server, model.replicas == 1, options.isGiven(Self.balancer) {
            warnings.append("'--balancer' has no effect: one replica takes every copy (see --replicas)")
        }
        self.scenarios = scenarios
        self.warnings = warnings
    }

    /// The server model with its own options, and the names of the options that apply to it.
    private static func server(_ options: ParsedOptions) throws(CommandLineError) -> (ServerModel, Set<String>) {
        switch try options(server) {
        case .alwaysFail:
            return (.alwaysFail, [])
        case .bernoulli(let p, _):
            return (
                .bernoulli(failureProbability: p, retryAfter: try options(serverRetryAfter)), [serverRetryAfter.name]
            )
        case .outage(let end, _):
            return (.outage(until: end, retryAfter: try options(serverRetryAfter)), [serverRetryAfter.name])
        case .contention:
            let hop = NetworkDelay(mean: try options(hop), standardDeviation: try options(hopSD))
            return (.contention(hop: hop), [Self.hop.name, hopSD.name])
        case .trace(let trace):
            return (.trace(trace), [])
        case .component(let component):
            // Its ranges are its spec's: an error names the --server value (its form states them).
            do throws(SimulationError) {
                try component.base.validate()
            } catch {
                throw options.invalid(server, detail: error.isOutsideOwnRange ? nil : "\(error)")
            }
            return (.component(component), component.base.takesTimeouts ? [timeout.name] : [])
        case .capacity:
            let names =
                [workers, queue].map(\.name) + [
                    replicas.name, dropExpired.name, queueDiscipline.name,
                    service.name, rejectRetryAfter.name, degradeFrom.name, degradeUntil.name, degradeTo.name,
                    capacityTrace.name, timeout.name, patience.name, balancer.name, hostFault.name,
                    retryHostPredicate.name, outlierDetection.name,
                ]
            return (.capacity(try capacity(options)), Set(names))
        }
    }

    private static func capacity(_ options: ParsedOptions) throws(CommandLineError) -> CapacityModel {
        var degradation: CapacityModel.Degradation?
        switch (try options(degradeFrom), try options(degradeUntil)) {
        case (let from?, let until?):
            degradation = CapacityModel.Degradation(
                start: VirtualTime(from), end: VirtualTime(until),
                fraction: try options(degradeTo))
        case (nil, nil):
            degradation = nil
        default:
            throw .usage(
                "A degradation window needs both '--degrade-from' and '--degrade-until'", command: options.command)
        }
        return CapacityModel(
            workers: try options(workers), serviceTime: try options(service), queueLimit: try options(queue),
            rejectionRetryAfter: try options(rejectRetryAfter), degradation: degradation,
            capacityProfile: try options(capacityTrace), replicas: try options(replicas) ?? 1,
            dropsExpired: try options(dropExpired), queueDiscipline: try options(queueDiscipline) ?? .fifo,
            balancer: try options(balancer) ?? .random, faultyHosts: try options(hostFault),
            retryHostPredicate: try options(retryHostPredicate), outlierDetection: try options(outlierDetection) ?? nil)
    }

    /// The scenario's error, reported against the option that sets the parameter it concerns (found
    /// by the declarations: the one given, else the first declared), quoting the value. An error of
    /// a parameter's own range needs no words when the option's form states the range; a rule
    /// between options says which.
    private static func usageError(_ error: SimulationError, options: ParsedOptions) -> CommandLineError {
        let candidates = options.specs.filter { $0.parameter == .scenario(error.parameter) }
        guard let first = candidates.first else { return .usage("\(error)", command: options.command) }
        let spec = candidates.first(where: options.isGiven) ?? first
        let from = "(--degrade-from \(options.text(degradeFrom) ?? ""))"
        let detail: String? =
            switch error {
            case .retryAfterNeedsRecovery: "bernoulli failures have no recovery time"
            case .degradationEndsBeforeStart: "the degradation window ends before it starts \(from)"
            case .degradationAndCapacityTrace: "\(error) \(from)"
            case .recoveryTriggerWithoutRecovery:
                "the recovery trigger needs a server that recovers (outage, a trace that ends at probability 0, or "
                    + "capacity with --degrade-from/--degrade-until or a --capacity-trace back at 1)"
            default: error.isOutsideOwnRange && spec.formStatesRange ? nil : "\(error)"
            }
        return options.invalid(spec, detail: detail)
    }
}
