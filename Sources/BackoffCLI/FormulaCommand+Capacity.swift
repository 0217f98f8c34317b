import BackoffPolicies
import RetrySimulation

/// `backoff formula --server capacity`: the capacity server's exact stationary answers under each
/// row's policy, from its Markov chain (`RetrialQueue`), where the policy's waits are memoryless.
extension FormulaCommand {
    static let server = Option<Bool?>.optional(
        "server", "model", kind: .serverModel,
        form: "capacity (the one server whose answers formula computes, as a Markov chain)",
        help:
            "Also solve a capacity server fed by --arrivals poisson:RATE exactly (its Markov chain): needs exp service "
            + "and exponential waits (--jitter exponential, cap mode nominal) or a single attempt.",
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
        "With --server capacity: the service time, exp:MEAN (the chain needs exponential service)."
    ).grouped(.command)
    static let capacitySpecs = [server.spec, arrivals.spec, workers.spec, queue.spec, service.spec]

    /// The most states a chain may take (about 230 bytes each with three retry stages).
    static let maximumStates = 2_000_000

    /// The capacity server asked about, and the exact answer under one policy.
    struct Capacity {
        let arrivalRate: Double
        let workers: Int
        let queueLimit: Int
        let service: ServiceTime
        /// The answer: `nil` when the policy's waits are not memoryless.
        let solution: RetrialQueue.Solution?

        /// The question with the answer under `policy`.
        func solved(under policy: BackoffPolicy) throws(CommandLineError) -> Capacity {
            guard case .exponential(let mean) = service, let retryRates = policy.exponentialRetryRates,
                let queue = RetrialQueue(
                    arrivalRate: arrivalRate, serviceRate: 1e9 / mean.nanoseconds, workers: workers,
                    queueLimit: queueLimit, retryRates: retryRates)
            else { return self }
            do {
                let solution = try queue.solve(maximumStates: FormulaCommand.maximumStates)
                return Capacity(
                    arrivalRate: arrivalRate, workers: workers, queueLimit: queueLimit, service: service,
                    solution: solution)
            } catch {
                throw .failure(
                    "the capacity server's chain under jitter \(policy.jitter.name) has no exact answer here: \(error); "
                        + "backoff simulate measures it")
            }
        }
    }

    /// The `--server capacity` question, checked: `nil` without `--server`.
    static func capacity(_ options: ParsedOptions) throws(CommandLineError) -> Capacity? {
        let (rate, workers, queue, service) = (
            try options(arrivals), try options(Self.workers), try options(Self.queue), try options(Self.service)
        )
        guard try options(server) != nil else { return nil }
        guard let rate else {
            throw .usage("'--server capacity' needs '--arrivals poisson:RATE', the Poisson arrivals the chain is fed")
        }
        guard case .exponential(let mean) = service, mean > .zero else {
            throw options.invalid(Self.service, detail: "the chain needs exponential service of a mean above 0")
        }
        return Capacity(arrivalRate: rate, workers: workers, queueLimit: queue, service: service, solution: nil)
    }

    /// The columns `--server capacity` adds: the server's parameters, then its exact answers.
    static let capacityTable: [Column<Row>] = capacityParameters + capacityAnswers

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
        Column("service", "with --server: the service time (exponential)") {
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

    /// A column of the exact answer, empty where the row's waits make no chain.
    private static func answer(
        _ name: String, _ meaning: String, _ value: @escaping @Sendable (RetrialQueue.Solution) -> Double
    ) -> Column<Row> {
        Column(
            "capacity_" + name,
            "with --server capacity: \(meaning) (stationary and exact; empty where the waits are not exponential)"
        ) { CSVFormat.number($0.capacity?.solution.map(value)) }
    }
}
