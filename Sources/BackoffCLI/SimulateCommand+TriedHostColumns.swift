import RetrySimulation

extension SimulateCommand {
    /// The columns of a retry host predicate (``RetryHostPredicate``), after every other.
    static let triedHostColumns: [Column<SimulateRow>] = [
        ScenarioColumns.retryHostPredicate.column { $0.scenario.retryHostPredicate },
        Column(
            ClosedFormMean.retriesToTriedHosts.column,
            "share of the retries picked under --retry-host-predicate that went to a host their request had tried "
                + "(empty without the predicate, or without retries)"
        ) { CSVFormat.number($0.triedHosts?.share.finite) },
        Column(
            ClosedFormMean.retriesToTriedHosts.formulaColumn,
            "its closed form under a random balancer: the mean over the run's retries of (a/n)^(N+1), a the distinct "
                + "hosts the retry's request had tried, n the replicas, N the predicate's attempts (empty: another "
                + "balancer, or outlier detection)"
        ) { row in CSVFormat.number(row.scenario.retryHostFormulaHolds ? row.triedHosts?.expectedShare.finite : nil) },
        Column(
            ClosedFormMean.retriesToTriedHosts.standardErrorColumn,
            "standard error of retries_to_tried_hosts: √(Σ p(1 - p))/R with p = (a/n)^(N+1) under a random balancer "
                + "(the retries are independent given a), else √(s(1 - s)/R) for the share s, R the retries"
        ) { row in
            let tally = row.triedHosts
            let error =
                row.scenario.retryHostFormulaHolds ? tally?.expectedStandardError : tally?.observedStandardError
            return CSVFormat.number(error?.finite)
        },
    ]
}

extension SimulateRow {
    /// The retries a retry host predicate picked, `nil` without one.
    fileprivate var triedHosts: TriedHostTally? { report.hedge?.triedHosts }
}

extension Double {
    /// The value, or `nil` when it is NaN (an empty cell).
    fileprivate var finite: Double? { isNaN ? nil : self }
}
