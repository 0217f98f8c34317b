import RetrySimulation

/// One row of `simulate --hosts-report FILE`: one host of one jitter mode's replica set, with the
/// copies the balancer sent it beside the share a random balancer gives each host.
struct HostRow {
    let jitter: String
    /// The replica's number, from 0 (the faulty hosts of `--host-fault COUNT` are the first COUNT).
    let host: Int
    /// The host's fault, as `--host-fault` names it after the count; `nil` for a healthy host.
    let fault: HostFault?
    let load: HostLoad
    /// Copies sent to every host of the run.
    let copies: Int
    /// 1/K where each copy's host is drawn uniformly (``Scenario/hostShareFormulaHolds``).
    let formulaShare: Double?

    /// The rows of one mode's run, one per replica; none where the run went through no replica set.
    static func rows(of row: SimulateRow) -> [HostRow] {
        guard let hedge = row.report.hedge, let loads = hedge.hosts else { return [] }
        let scenario = row.scenario
        let faulty = scenario.faultyHosts
        let formula = scenario.hostShareFormulaHolds ? 1 / Double(loads.count) : nil
        return loads.enumerated().map { host, load in
            HostRow(
                jitter: scenario.policy.jitter.name, host: host,
                fault: host < faulty?.count ?? 0 ? faulty?.fault : nil, load: load, copies: hedge.copies,
                formulaShare: formula)
        }
    }

    var share: Double { copies > 0 ? Double(load.copies) / Double(copies) : .nan }

    /// The columns of `--hosts-report FILE`.
    static let columns: [Column<HostRow>] = [
        Column("jitter", "jitter mode") { $0.jitter }.holdingText(),
        Column("host", "the replica's number, from 0 (the faulty hosts of --host-fault COUNT are the first COUNT)") {
            String($0.host)
        },
        Column("fault", "the host's fault as --host-fault names it after the count, or none") {
            $0.fault.map(HostFaultSpec.print) ?? "none"
        }.holdingText(),
        Column("copies", "copies the balancer sent the host (attempts, and a hedge's copies)") {
            String($0.load.copies)
        },
        Column(ClosedFormMean.hostShare.column, "the host's share of every copy sent to the replicas") {
            CSVFormat.number($0.share)
        },
        Column(
            ClosedFormMean.hostShare.formulaColumn,
            "1/K for each of K hosts where each copy's host is drawn uniformly after whatever decided to send it "
                + "(a random balancer, no hedge, no outlier detection, no retry host predicate that redraws); else empty"
        ) { CSVFormat.number($0.formulaShare) },
        Column(
            ClosedFormMean.hostShare.standardErrorColumn,
            "standard error of share where formula_share holds: √(p(1 - p)/copies), p = 1/K (given the copies, each "
                + "lands on the host independently with probability p); else empty"
        ) { row in
            CSVFormat.number(row.formulaShare.map { HostLoad.shareStandardError(share: $0, copies: row.copies) })
        },
        Column("successes", "copies the host answered with a success while their call waited for them") {
            String($0.load.successes)
        },
        Column(
            "failures",
            "copies the host answered with a failure while their call waited for them (a full queue, its fault)"
        ) { String($0.load.failures) },
        Column("busy_s", "its workers' busy time for its copies, seconds") { CSVFormat.number($0.load.busySeconds) },
        Column("ejections", "times outlier detection ejected the host (0 without --outlier-detection)") {
            String($0.load.ejections)
        },
        Column("ejected_s", "seconds its ejections were scheduled to last, each to the interval tick that ends it") {
            CSVFormat.number($0.load.ejectedSeconds)
        },
    ]
}
