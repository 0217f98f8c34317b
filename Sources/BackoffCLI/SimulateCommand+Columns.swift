import RetrySimulation
import Stochastics

extension SimulateCommand {
    /// The table's header: its columns' names.
    static let header = table.header()

    /// The table's columns, in order; new columns go at the end.
    static let table: [Column<SimulateRow>] =
        [
            PolicyColumns.jitter { $0.scenario.policy },
            Column("clients", "clients N (sessions that arrived)") { String($0.report.clients) },
            Column("server", "server model") { $0.server },
        ]
        + PolicyColumns.leading { $0.scenario.policy }
        + [
            Column("seed", "root seed") { String($0.seed) },
            Column("attempts_total", "attempts made by all clients (contention: writes, the 2015 study's calls)") {
                String($0.report.attempts)
            },
            Column(CheckedMean.attemptsPerClient.column, "attempts_total / N") {
                CSVFormat.number($0.report.attemptsPerClient)
            },
            Column(CheckedMean.successes.column, "requests that succeeded") { String($0.report.successes) },
            Column("give_ups", "requests that ran out of attempts (or time)") { String($0.report.giveUps) },
            Column(
                CheckedMean.meanTotalWait.column,
                "mean per-request total wait (its backoff, and with --throttle aws-adaptive its token waits), seconds"
            ) {
                CSVFormat.number($0.report.totalWait.mean)
            },
            Column("p99_total_wait_s", "99th percentile of the per-request total wait (token waits included), seconds")
            {
                CSVFormat.number($0.report.totalWait.quantile(0.99))
            },
            Column("mean_completion_s", "mean time from a request's first attempt to its end, seconds") {
                CSVFormat.number($0.report.meanCompletion)
            },
            Column("peak_load", "most attempts in one bucket") { String($0.report.timeline.peakLoad.attempts) },
            Column("peak_load_time_s", "start of the first bucket with that many, seconds") {
                CSVFormat.number($0.report.timeline.peakLoad.start.seconds)
            },
            Column("peak_retry_load", "most retries in one bucket (bucket 0 always holds a burst's first attempts)") {
                String($0.report.timeline.peakRetryLoad.attempts)
            },
            Column("peak_retry_time_s", "start of the first bucket with that many, seconds") {
                CSVFormat.number($0.report.timeline.peakRetryLoad.start.seconds)
            },
            Column("bucket_s", "bucket width, seconds") { CSVFormat.seconds($0.scenario.bucketWidth) },
            Column(
                CheckedMean.attemptsPerClient.formulaColumn,
                "closed-form expected attempts per client, for a burst of single requests against an instant server "
                    + "(always-fail; bernoulli; outage without jitter, or by convolution with a jitter mode whose waits are "
                    + "independent: full, equal, proportional, additive; empty otherwise)"
            ) { CSVFormat.number($0.formula?.attemptsPerClient) },
            Column(
                CheckedMean.meanTotalWait.formulaColumn,
                "closed-form expected total wait, seconds (empty: no closed form)"
            ) {
                CSVFormat.number($0.formula?.meanTotalWait)
            },
            Column(CheckedMean.successes.formulaColumn, "closed-form expected successes (empty: no closed form)") {
                row in
                CSVFormat.number(row.formula.map { $0.successFraction * row.clients })
            },
        ]
        + PolicyColumns.trailing { $0.scenario.policy }
        + [
            Column("generator", "GSL generator") { $0.generator.rawValue },
            Column(
                CheckedMean.attemptsPerClient.standardErrorColumn,
                "standard error of attempts_per_client: sd of per-client attempts / √N; where clients interact and "
                    + "arrive over time, from 32 batches of them in arrival order; with --replications R, the sd of "
                    + "attempts_per_client over R runs; empty for a burst of interacting clients run once"
            ) {
                CSVFormat.number($0.standardError($0.report.attemptsStandardError))
            },
            Column(
                CheckedMean.meanTotalWait.standardErrorColumn,
                "standard error of mean_total_wait_s, seconds (batches of clients where they interact and arrive over time; "
                    + "the sd over R runs with --replications R; empty for a burst of interacting clients run once)"
            ) {
                CSVFormat.number($0.standardError($0.report.meanTotalWaitStandardError))
            },
            Column(
                CheckedMean.successes.standardErrorColumn,
                "standard error of successes: binomial, √(n p (1 - p)), n requests, p = successes / n; where clients "
                    + "interact and arrive over time, from 32 batches of them in arrival order; with --replications R, "
                    + "the sd of successes over R runs; empty for a burst of interacting clients run once"
            ) {
                CSVFormat.number($0.standardError($0.report.successesStandardError))
            },
            Column("unique_requests", "requests sent (first attempts)") { String($0.report.uniqueRequests) },
            Column("work_amplification", "attempts per request sent") { CSVFormat.number($0.report.workAmplification) },
            Column("rejected", "attempts rejected at once by a full queue (capacity)") { String($0.report.rejected) },
            Column("timeouts", "attempts the client stopped waiting for (capacity with --timeout)") {
                String($0.report.timeouts)
            },
            Column(
                "wasted_work",
                "attempts served after their client had timed out, or after another copy of their hedged request answered"
            ) { String($0.report.wastedWork) },
            Column(
                "expired_drops",
                "queued attempts the capacity server dropped unserved because their caller had stopped waiting "
                    + "(--drop-expired; 0 without it)"
            ) { String($0.report.expiredDrops) },
            Column("permanent_failures", "requests ended by a permanent error at their first attempt") {
                String($0.report.permanentFailures)
            },
            Column("requests_lost", "requests given up, plus those never sent because their session ended") {
                String($0.report.requestsLost)
            },
            Column("dead_sessions", "sessions ended by a request that gave up (--on-give-up end-session)") {
                String($0.report.deadSessions)
            },
            Column(
                "drain_time_s",
                "end of the outage or degradation to the end of the last bucket with load above L + 3√L, L the expected "
                    + "first attempts per bucket (the Poisson rate times the bucket width, 0 after a burst), seconds "
                    + "(empty: no such end)"
            ) { $0.drainTime.map { CSVFormat.seconds(nanoseconds: $0) } ?? "" },
            Column("goodput", "successful requests per second, until the last request ended") {
                CSVFormat.number($0.report.goodput)
            },
            Column(
                "last_completion_s",
                "when the last request ended, seconds from t = 0 (the 2015 study's completion time)"
            ) {
                CSVFormat.number($0.report.lastCompletion)
            },
            Column("peak_queue", "most attempts waiting in the capacity server's queue at once") {
                String($0.report.peakQueue)
            },
        ]
        + LoadPeakColumns.columns(
            prefix: "formula",
            attempts: "closed-form expected attempts in the busiest bucket (outage, burst; empty otherwise)",
            retries: "closed-form expected retries in the busiest bucket", start: "start of that bucket, seconds",
            load: { $0.load }, clients: { $0.clients })
        + [
            Column("retry_fraction", "retries (attempts after a request's first) as a fraction of all attempts") {
                CSVFormat.number($0.report.retryFraction)
            },
            Column("budget_denials", "retries the retry budget refused (each ended its request)") {
                String($0.report.budgetDenials)
            },
            Column("local_rejections", "attempts the breaker or throttle refused to send (each ended its request)") {
                String($0.report.localRejections)
            },
            Column(
                "recovered",
                "capacity with a degradation window: yes when goodput over 1 s reached 90 % of its pre-trigger level within "
                    + "10 s of the window's end, no otherwise (empty: no window)"
            ) { $0.recovery.recovered },
            Column("recovery_time_s", "when it did, seconds after the window's end (empty: never, or no window)") {
                $0.recovery.time
            },
            PolicyColumns.capMode { $0.scenario.policy },
            Column("at_cap_fraction", "measured share of the waits before retries that equal the cap (empty: no retry)")
            {
                CSVFormat.number($0.report.waits.atCapFraction)
            },
        ] + PolicyColumns.shape { $0.scenario.policy } + [
            Column(
                "token_waits",
                "attempts that waited for a token of the client-side rate limiter (--throttle aws-adaptive)"
            ) {
                String($0.report.tokenWaits)
            },
            Column("token_wait_s", "those waits in all, seconds") { CSVFormat.number($0.report.tokenWaitTotal) },
            Column("layers", "service layers between the clients and the server (--layer)") {
                String($0.scenario.layers.count)
            },
            Column("client_attempts", "attempts the clients sent (into the layers; without any, attempts_total)") {
                String($0.report.clientAttempts)
            },
            Column(
                "formula_work_amplification",
                "closed-form expected work_amplification (server attempts per request): ∏ n_k over the clients and layers (always-fail), "
                    + "(1 - p^N)/(1 - p) with N = ∏ n_k (bernoulli); empty with budgets, breakers, throttles, time limits, "
                    + "concurrency, permanent errors or another server"
            ) { CSVFormat.number($0.scenario.amplificationFormula) },
            Column(
                "orphaned_attempts",
                "server attempts answered after a caller above (a layer, or the client) had stopped waiting for them"
            ) { String($0.report.orphanedAttempts) },
            Column("deadline_exceeded", "requests whose --deadline passed while an attempt was in flight") {
                String($0.report.deadlineExceeded)
            },
        ] + hedgeColumns

    /// The columns of hedged requests and replicas (empty unless --hedge or --replicas above 1).
    private static let hedgeColumns: [Column<SimulateRow>] = [
        Column("replicas", "capacity: replicas behind the balancer (--replicas; 1 for other servers)") {
            String($0.scenario.replicas)
        },
        Column("hedge", "the hedge, as --hedge takes it (none: one copy per attempt)") {
            LimitSpec.text($0.scenario.hedging)
        },
        Column(
            "copies_per_request",
            "copies sent per attempt that reached the replicas (empty unless --hedge or --replicas above 1)"
        ) { CSVFormat.number($0.report.hedge?.copiesPerRequest) },
        Column(
            "formula_copies_per_request",
            "closed-form expected copies per request where no copy waits for a worker: Σ_k ∏_{i<k} S(i d), S the "
                + "service time's survival, d the delay (empty: no replicas, or a capacity that changes over time)"
        ) { CSVFormat.number($0.formula(\.copies)) },
        Column(
            "mean_response_s",
            "mean time from an attempt reaching the replicas to its answer (the first success, a permanent error, or "
                + "the last copy's failure), seconds"
        ) { CSVFormat.number($0.report.hedge?.responses.mean) },
        Column(
            "formula_mean_response_s",
            "closed-form expected response where no copy waits: ∫ ∏_k S(t - (k - 1) d) dt, seconds"
        ) { CSVFormat.number($0.formula(\.meanResponse)) },
        Column(
            "work_per_request_s",
            "workers' busy time per request, every copy from its service's start to its end or cancellation, seconds"
        ) { CSVFormat.number($0.report.hedge?.workPerRequest) },
        Column(
            "formula_work_per_request_s",
            "closed-form expected work where no copy waits: E[T] x copies without cancellation, Σ_k ∫_{(k-1)d}^∞ "
                + "P(R > t) dt with it, seconds"
        ) { CSVFormat.number($0.formula(\.work)) },
        Column("p99_response_s", "99th percentile of the response time (exact), seconds") {
            CSVFormat.number($0.report.hedge?.responses.quantile(0.99))
        },
        Column("p999_response_s", "99.9th percentile of the response time (exact), seconds") {
            CSVFormat.number($0.report.hedge?.responses.quantile(0.999))
        },
        Column(
            "se_copies_per_request",
            "standard error of copies_per_request: sd of per-request copies / √n, or from batches of requests where clients "
                + "arrive over time, or the sd over R runs with --replications R (empty for a burst run once)"
        ) {
            CSVFormat.number($0.standardError($0.report.hedge?.copiesStandardError))
        },
        Column(
            "se_mean_response_s",
            "standard error of mean_response_s: sd / √n, or from batches of requests where clients arrive over time (under "
                + "load, responses are not independent), or the sd over R runs with --replications R (empty for a burst "
                + "run once)"
        ) { CSVFormat.number($0.standardError($0.report.hedge?.meanResponseStandardError)) },
        Column(
            "se_work_per_request_s",
            "standard error of work_per_request_s: sd of per-request work / √n, or from batches of requests where clients "
                + "arrive over time, or the sd over R runs with --replications R (empty for a burst run once)"
        ) {
            CSVFormat.number($0.standardError($0.report.hedge?.workStandardError))
        },
        Column("cancelled_copies", "copies whose work a cancellation stopped (queued, or in service)") {
            $0.report.hedge.map { String($0.withdrawn) } ?? ""
        },
        Column(
            "refused_copies",
            "copies after the first that a budget refused (--budget: gRPC's token bucket at or below half its tokens; "
                + "a percentile hedge's own backup budget), so not sent"
        ) { $0.report.hedge.map { String($0.refused) } ?? "" },
        Column(
            "quantiles",
            "how p99_total_wait_s was found: exact, or sketch (above 16,777,216 requests, where memory stays constant: "
                + "a log-bucketed histogram, within 0.1 % of the exact quantile)"
        ) { $0.report.totalWait.quantilesAreExact ? "exact" : "sketch" },
        Column("arrivals", "when sessions start, as --arrivals takes it: burst, uniform:WINDOW or poisson:RATE") {
            ScenarioText.arrivals($0.scenario.arrivals)
        },
        Column("service", "capacity: the service time, as --service takes it (empty for other servers)") {
            guard case .capacity(let model) = $0.scenario.server else { return "" }
            return ScenarioText.service(model.serviceTime)
        },
        Column("layer_attempts", "each --layer's attempts, top to bottom, x-separated, e.g. 3x2 (empty: no layer)") {
            ScenarioText.layerAttempts($0.scenario.layers)
        },
    ]

    /// One row of `--timeline FILE` per bucket: a mode's bucket and its expected load.
    struct TimelineRow {
        let jitter: String
        let start: Double
        let bucket: LoadTimeline.Bucket
        let expected: (attempts: Double, retries: Double)?
        /// The limiters' fill rate as of the bucket's end (the last answer's, carried forward).
        let fillRate: Double?
    }

    /// The columns of `--timeline FILE`.
    static let timelineColumns: [Column<TimelineRow>] = [
        Column("jitter", "jitter mode") { $0.jitter },
        Column("bucket_start_s", "start of the bucket, seconds") { CSVFormat.number($0.start) },
        Column("attempts", "attempts arriving at the server") { String($0.bucket.attempts) },
        Column("retries", "retries among them") { String($0.bucket.retries) },
        Column("successes", "answers that were successes") { String($0.bucket.successes) },
        Column("failures", "answers that were failures") { String($0.bucket.failures) },
        Column("rejected", "attempts rejected by a full queue") { String($0.bucket.rejected) },
        Column("timeouts", "attempts timed out by their client") { String($0.bucket.timeouts) },
        Column("expected_attempts", "expected attempts, from the convolution (empty where it does not apply)") {
            CSVFormat.number($0.expected?.attempts)
        },
        Column("expected_retries", "expected retries, from the convolution") { CSVFormat.number($0.expected?.retries) },
        Column("peak_queue", "the longest the capacity server's queue was at an arrival or departure in the bucket") {
            String($0.bucket.peakQueue)
        },
        Column(
            "fill_rate",
            "--throttle aws-adaptive: the rate limiter's fill rate at the bucket's end, per second (the mean over the "
                + "clients' own with scope=per-client; empty: no limiter)"
        ) { CSVFormat.number($0.fillRate) },
    ]

    /// The columns of `--requests FILE`: one row per request, a mode's jitter name with its record.
    static let requestColumns: [Column<(jitter: String, request: RequestRecord)>] = [
        Column("jitter", "jitter mode") { $0.jitter },
        Column("client", "the client, 0-based in arrival order") { String($0.request.client) },
        Column("request", "the request within the client's session, 0-based") { String($0.request.request) },
        Column("start_s", "when the request's first attempt left, seconds") {
            CSVFormat.seconds(nanoseconds: $0.request.start.nanoseconds)
        },
        Column("completion_s", "when the request ended (its answer, or the give-up), seconds") {
            CSVFormat.seconds(nanoseconds: $0.request.completion.nanoseconds)
        },
        Column("attempts", "the client's attempts for the request") { String($0.request.attempts) },
        Column("copies", "copies its attempts sent to the replicas (--hedge); equal to attempts without a hedge") {
            String($0.request.copies)
        },
        Column(
            "outcome", "succeeded, permanent_failure, gave_up, denied_by_budget, rejected_locally or deadline_exceeded"
        ) {
            $0.request.outcome.columnText
        },
        Column("total_wait_s", "the request's backoff waits and rate-limiter token waits, seconds") {
            CSVFormat.seconds(nanoseconds: $0.request.totalWait.wholeNanoseconds)
        },
    ]
}
