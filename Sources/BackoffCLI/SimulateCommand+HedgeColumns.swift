import RetrySimulation
import Stochastics

extension SimulateCommand {
    /// The columns of hedged requests and replicas: the replica set's (empty without one). The
    /// clients' hedge over layers is a layer's, counted in the layer report.
    static let hedgeColumns: [Column<SimulateRow>] = [
        ScenarioColumns.replicas.column { $0.scenario.replicas },
        ScenarioColumns.hedge.column { $0.scenario.hedging },
        Column(
            "copies_per_request",
            "copies sent per attempt that reached the replicas (empty without a replica set: --replicas above 1, or "
                + "a hedge at the replicas, --hedge without --layer or the bottom layer's hedge-*; over layers the "
                + "clients' hedge copies are in --layer-report's clients row)"
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
        ) { $0.report.totalWait.quantilesAreExact ? "exact" : "sketch" }.holdingText().parameter(),
        ScenarioColumns.arrivals.column { $0.scenario.arrivals },
        ScenarioColumns.service.column {
            guard case .capacity(let model) = $0.scenario.server else { return nil }
            return model.serviceTime
        },
        ScenarioColumns.layerAttempts.column { $0.scenario.layers.map(\.policy.maxAttempts) },
    ]
}
