import RetrySimulation
import Stochastics

extension SimulateCommand {
    /// The table's header: its columns' names.
    static let header = table.header()

    /// The table's columns, in order; new columns go at the end.
    static let table: [Column<SimulateRow>] =
        [
            PolicyColumns.jitter { $0.scenario.policy },
            ScenarioColumns.clients.column { $0.report.clients },
            ScenarioColumns.server.column { $0.scenario.server },
        ]
        + PolicyColumns.leading { $0.scenario.policy }
        + [
            Column("seed", "root seed") { String($0.seed) }.parameter(),
            Column("attempts_total", "attempts made by all clients (contention: writes, the 2015 study's calls)") {
                String($0.report.attempts)
            },
            Column(ClosedFormMean.attemptsPerClient.column, "attempts_total / N") {
                CSVFormat.number($0.report.attemptsPerClient)
            },
            Column(ClosedFormMean.successes.column, "requests that succeeded") { String($0.report.successes) },
            Column("give_ups", "requests that ran out of attempts (or time)") { String($0.report.giveUps) },
            Column(
                ClosedFormMean.meanTotalWait.column,
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
            ScenarioColumns.bucketWidth.column { $0.scenario.bucketWidth },
            Column(
                ClosedFormMean.attemptsPerClient.formulaColumn,
                "closed-form expected attempts per client, for a burst of single requests against an instant server "
                    + "(always-fail; bernoulli; outage without jitter, or by convolution with a jitter mode whose waits are "
                    + "independent: full, equal, proportional, additive; empty otherwise)"
            ) { CSVFormat.number($0.formula?.attemptsPerClient) },
            Column(
                ClosedFormMean.meanTotalWait.formulaColumn,
                "closed-form expected total wait, seconds (empty: no closed form)"
            ) {
                CSVFormat.number($0.formula?.meanTotalWait)
            },
            Column(ClosedFormMean.successes.formulaColumn, "closed-form expected successes (empty: no closed form)") {
                row in
                CSVFormat.number(row.formula.map { $0.successFraction * row.clients })
            },
        ]
        + PolicyColumns.trailing { $0.scenario.policy }
        + [
            Column("generator", "GSL generator") { $0.generator.rawValue }.holdingText().parameter(),
            Column(
                ClosedFormMean.attemptsPerClient.standardErrorColumn,
                "standard error of attempts_per_client: sd of per-client attempts / √N; where clients interact and "
                    + "arrive over time, from 32 batches of them in arrival order; with --replications R, the sd of "
                    + "attempts_per_client over R runs; empty for a burst of interacting clients run once"
            ) {
                CSVFormat.number($0.standardError($0.report.attemptsStandardError))
            },
            Column(
                ClosedFormMean.meanTotalWait.standardErrorColumn,
                "standard error of mean_total_wait_s, seconds (batches of clients where they interact and arrive over time; "
                    + "the sd over R runs with --replications R; empty for a burst of interacting clients run once)"
            ) {
                CSVFormat.number($0.standardError($0.report.meanTotalWaitStandardError))
            },
            Column(
                ClosedFormMean.successes.standardErrorColumn,
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
            Column(
                "local_rejections",
                "attempts the breaker, throttle or concurrency limit (--limit) refused to send (each ended its request)"
            ) {
                String($0.report.localRejections)
            },
            Column(
                "recovered",
                "capacity with a degradation window: yes when goodput over 1 s reached 90 % of its pre-trigger level within "
                    + "10 s of the window's end, no otherwise (empty: no window)"
            ) { $0.recovery.recovered }.holdingText(),
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
            ScenarioColumns.layers.column { $0.scenario.layers.count },
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
        ] + hedgeColumns + fluidColumns + [ScenarioColumns.timeout.column { $0.scenario.attemptTimeout }]
        + faultyHostColumns + triedHostColumns + outlierColumns + capacityColumns
}
