import RetrySimulation

extension SimulateCommand {
    /// The columns of faulty hosts (``FaultyHosts``), after the others.
    static let faultyHostColumns: [Column<SimulateRow>] = [
        ScenarioColumns.hostFault.column { $0.scenario.faultyHosts },
        Column(
            ClosedFormMean.faultyHostShare.column,
            "share of the copies sent to the replicas that went to a faulty host (--host-fault; empty without one)"
        ) { $0.faultyHostTally.map { CSVFormat.number($0.faultyHostShare) } ?? "" },
        Column(
            ClosedFormMean.faultyHostShare.formulaColumn,
            "expected share under a random balancer without a hedge: f/K for f faulty hosts of K, whatever the "
                + "failures do to the retries (empty: no faulty host, another balancer, a hedge, outlier detection, or a retry host predicate that redraws)"
        ) { CSVFormat.number($0.scenario.faultyHostShareFormula) },
        Column(
            ClosedFormMean.faultyHostShare.standardErrorColumn,
            "standard error of faulty_host_share: from batches of copies in the order sent where clients arrive over "
                + "time, the sd over R runs with --replications R, or √(p(1 - p)/copies) for a burst (empty for a burst "
                + "of interacting clients run once)"
        ) { $0.standardError($0.faultyHostTally?.faultyHostShareStandardError).map(CSVFormat.number) ?? "" },
    ]
}

extension SimulateCommand {
    /// The columns of outlier detection (``OutlierDetection``), last.
    static let outlierColumns: [Column<SimulateRow>] = [
        ScenarioColumns.outlierDetection.column { $0.scenario.outlierDetection },
        Column("ejections", "hosts ejected by --outlier-detection (empty without it)") {
            $0.report.hedge?.ejections.map { String($0.count) } ?? ""
        },
        Column(
            "ejected_host_s",
            "seconds of ejection, summed over the ejections, each from its start to the interval tick that brings "
                + "the host back (empty without --outlier-detection)"
        ) { CSVFormat.number($0.report.hedge?.ejections?.seconds) },
    ]
}

extension SimulateRow {
    /// The replica set's tally where some of its hosts are faulty.
    fileprivate var faultyHostTally: HedgeTally? { scenario.faultyHosts == nil ? nil : report.hedge }
}
