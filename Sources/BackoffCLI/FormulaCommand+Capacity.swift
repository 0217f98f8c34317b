import BackoffPolicies
import RetrySimulation
import Stochastics

/// `backoff formula --server capacity`: the capacity server's exact stationary answers under each
/// row's policy, from its Markov chain (`RetrialQueue`), where the service and the policy's waits
/// are memoryless and no timeout applies; and its fluid fixed points under any service, waits and
/// timeout (`FluidModel`): stable, vulnerable or collapsed, and the backlog that tips it.
extension FormulaCommand {
    static let server = Option<Bool?>.optional(
        "server", "model", kind: .serverModel,
        form: "capacity (the one server whose answers formula computes, as a Markov chain)",
        help:
            "Also solve a capacity server fed by --arrivals poisson:RATE: exactly (its Markov chain) under exp service, "
            + "exponential waits (--jitter exponential, cap mode nominal) or a single attempt, and no --timeout; and "
            + "as a fluid (fluid_ columns: stable, vulnerable or collapsed) under any service, waits and timeout.",
        parse: { text throws(InvalidValue) -> Bool in
            guard text == "capacity" else { throw InvalidValue() }
            return true
        }
    ).grouped(.command)
    static let arrivals = Option<Double?>.optional(
        "arrivals", "process", form: "poisson:RATE with RATE > 0 new requests a second (e.g. poisson:80)",
        help: "With --server capacity: the Poisson arrivals of new requests.",
        parse: { text throws(InvalidValue) -> Double in
            guard case .poisson(let rate) = try ArrivalsSpec.parse(text) else {
                throw InvalidValue("the chain needs Poisson arrivals")
            }
            guard rate > 0, rate.isFinite else { throw InvalidValue("the rate must be finite and above 0") }
            return rate
        }
    ).grouped(.command)
    static let workers = ScenarioOptions.workers.withHelp("With --server capacity: the workers c.").grouped(.command)
    static let queue = ScenarioOptions.queue.withHelp("With --server capacity: the waiting places K.").grouped(.command)
    static let service = ScenarioOptions.service.withHelp(
        "With --server capacity: the service time (the chain needs exp:MEAN; the fluid takes any)."
    ).grouped(.command)
    /// Optional, with no default: a table without it is the table it was.
    static let timeout = Option<Duration?>.optional(
        "timeout", "duration", kind: .duration,
        form: "a duration greater than 0 and at most \(ValueParser.horizonText), e.g. 200ms",
        help: "With --server capacity: the clients' per-attempt timeout (the fluid's; the chain has none).",
        parse: Parsers.form(ValueParser.duration, where: { $0 > .zero })
    ).grouped(.command)
    static let capacitySpecs = [server.spec, arrivals.spec, workers.spec, queue.spec, service.spec, timeout.spec]

    /// The most states a chain may take (about 230 bytes each with three retry stages).
    static let maximumStates = 2_000_000

    /// The capacity server asked about, and the exact answer under one policy.
    struct Capacity {
        let arrivalRate: Double
        let workers: Int
        let queueLimit: Int
        let service: ServiceTime
        let timeout: Duration?
        /// The exact answer: `nil` when the service or the policy's waits are not memoryless, or
        /// with a timeout.
        var solution: RetrialQueue.Solution?
        /// The fluid's fixed points: `nil` when the policy's expected waits have no closed form,
        /// or the integration failed (``fluidFailure`` says why).
        var fluid: FluidModel.Equilibria?
        var fluidFailure: String?

        /// Whether the service time is exponential, as the chain needs.
        var isExponential: Bool {
            if case .exponential = service { true } else { false }
        }

        /// The question with the answers under `policy`.
        func solved(under policy: BackoffPolicy) throws(CommandLineError) -> Capacity {
            var answered = self
            do throws(StochasticsError) {
                answered.fluid = try fluid(under: policy)
            } catch {
                answered.fluidFailure = "jitter \(policy.jitter.name): the fluid's integration failed (\(error))"
            }
            guard timeout == nil, case .exponential(let mean) = service,
                let retryRates = policy.exponentialRetryRates,
                let queue = RetrialQueue(
                    arrivalRate: arrivalRate, serviceRate: 1e9 / mean.nanoseconds, workers: workers,
                    queueLimit: queueLimit, retryRates: retryRates)
            else { return answered }
            do {
                answered.solution = try queue.solve(maximumStates: FormulaCommand.maximumStates)
                return answered
            } catch {
                throw .failure(
                    "the capacity server's chain under jitter \(policy.jitter.name) has no exact answer here: \(error); "
                        + "backoff simulate measures it")
            }
        }

        /// The fluid of this server under `policy`, and its fixed points: `nil` where its equations
        /// do not hold the policy.
        private func fluid(under policy: BackoffPolicy) throws(StochasticsError) -> FluidModel.Equilibria? {
            guard policy.maxElapsed == nil, let starts = policy.expectedStartTimes,
                let model = FluidModel(
                    arrivalRate: arrivalRate, arrivalsEnd: nil, workers: workers, queueLimit: queueLimit,
                    serviceTime: service, timeout: timeout.map { $0.nanoseconds / 1e9 },
                    retryWaits: zip(starts, starts.dropFirst()).map { $1 - $0 })
            else { return nil }
            return try model.equilibria()
        }
    }

    /// The `--server capacity` question, checked: `nil` without `--server`.
    static func capacity(_ options: ParsedOptions) throws(CommandLineError) -> Capacity? {
        let (rate, workers, queue, service, timeout) = (
            try options(arrivals), try options(Self.workers), try options(Self.queue), try options(Self.service),
            try options(Self.timeout)
        )
        guard try options(server) != nil else { return nil }
        guard let rate else {
            throw .usage("'--server capacity' needs '--arrivals poisson:RATE', the Poisson arrivals the chain is fed")
        }
        guard service.mean > .zero else {
            throw options.invalid(Self.service, detail: "the server needs a service time of a mean above 0")
        }
        return Capacity(arrivalRate: rate, workers: workers, queueLimit: queue, service: service, timeout: timeout)
    }

    /// The columns `--server capacity` adds: the server's parameters, its exact answers, then the
    /// timeout and the fluid's answers.
    static let capacityTable: [Column<Row>] = capacityParameters + capacityAnswers + fluidAnswers

    private static let capacityParameters: [Column<Row>] = [
        Column("server", "with --server: the server solved (capacity)") { $0.capacity == nil ? "" : "capacity" }
            .parameter(),
        Column("arrivals", "with --server: the Poisson arrivals of new requests") {
            $0.capacity.map { ArrivalsSpec.print(.poisson(ratePerSecond: $0.arrivalRate)) } ?? ""
        }.parameter(),
        Column("workers", "with --server: the workers c") { $0.capacity.map { String($0.workers) } ?? "" }
            .parameter(),
        Column("queue", "with --server: the waiting places K") { $0.capacity.map { String($0.queueLimit) } ?? "" }
            .parameter(),
        Column("service", "with --server: the service time") {
            $0.capacity.map { ServiceTimeSpec.print($0.service) } ?? ""
        }.parameter(),
    ]

    private static let capacityAnswers: [Column<Row>] = [
        answer("goodput_per_s", "successes a second, μ E[busy workers]") { $0.goodput },
        answer("lost_fraction", "share of new requests that end unserved, 1 - goodput / λ") { $0.lostFraction },
        answer("attempts_per_request", "attempts per request, 1 + Σ θ_k E[o_k] / λ") { $0.attemptsPerRequest },
        answer("mean_retrying", "requests waiting to retry, E[Σ o_k]") { $0.meanRetrying },
        answer("mean_total_wait_s", "seconds a request waits to retry, E[Σ o_k] / λ (Little)") { $0.meanTotalWait },
        answer("mean_response_s", "seconds from arrival to success or loss, (E[q] + E[Σ o_k]) / λ (Little)") {
            $0.meanResponseTime
        },
        answer("utilisation", "busy workers over c") { $0.utilisation },
        answer("full_probability", "share of time every place is taken (new requests are rejected)") {
            $0.fullProbability
        },
        answer(
            "boundary_mass", "probability on the truncation's boundary, under 1e-9: it bounds the truncation's error"
        ) {
            $0.boundaryMass
        },
        Column("capacity_states", "with --server capacity: the states of the truncated chain solved") {
            $0.capacity?.solution.map { String($0.states) } ?? ""
        },
    ]

    /// The fluid's columns, after the timeout it depends on (a parameter, placed after the chain's
    /// columns, which came first): its fixed points and what they make of the server.
    static let fluidAnswers: [Column<Row>] = [
        Column("timeout_s", "with --server: the clients' per-attempt timeout, seconds (inf: none)") {
            $0.capacity.map { CSVFormat.seconds($0.timeout) } ?? ""
        }.parameter(),
        Column(
            "fluid_state",
            "with --server capacity: the fluid's fixed points, stable (only a low one: the queue empties after any "
                + "trigger), vulnerable (a low and a high one: a large enough backlog tips it) or collapsed (only the "
                + "high one); empty where the policy's expected waits have no closed form, or the model is too stiff to "
                + "integrate (its fastest rate times its span above 10^7: 1 ns services)"
        ) { $0.capacity?.fluid?.regime.rawValue ?? "" }.holdingText(),
        Column(
            "fluid_low_goodput_per_s",
            "with --server capacity: successes a second at the fluid's low point, λ (1 - q0^n), q0 = P(S > T) (empty: none)"
        ) { CSVFormat.number($0.capacity?.fluid?.lowGoodput) },
        Column(
            "fluid_high_goodput_per_s",
            "with --server capacity: successes a second at the fluid's high point, the queue full, c/s (1 - q(K s/c)) "
                + "(empty: none)"
        ) { CSVFormat.number($0.capacity?.fluid?.highGoodput) },
        Column(
            "fluid_tipping_backlog",
            "with --server capacity: the fewest attempts waiting, over busy workers, from which a vulnerable server "
                + "does not drain (its retries at rest; empty unless vulnerable, or when even a full queue drains)"
        ) { CSVFormat.number($0.capacity?.fluid?.tippingBacklog) },
    ]

    /// A column of the exact answer, empty where the row's waits make no chain.
    private static func answer(
        _ name: String, _ meaning: String, _ value: @escaping @Sendable (RetrialQueue.Solution) -> Double
    ) -> Column<Row> {
        Column(
            "capacity_" + name,
            "with --server capacity: \(meaning) (stationary and exact; empty where the service or the waits are not "
                + "exponential, or with --timeout)"
        ) { CSVFormat.number($0.capacity?.solution.map(value)) }
    }
}
