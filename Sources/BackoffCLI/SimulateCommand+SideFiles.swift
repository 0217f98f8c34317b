import RetrySimulation

/// The files `simulate` writes beside its table: the load per bucket (`--timeline`), a row per
/// layer (`--layer-report`, ``LayerRow``) and a row per host of a replica set (`--hosts-report`,
/// ``HostRow``).
extension SimulateCommand {
    static let hostsReport = Option<String?>.optional(
        "hosts-report", "file", form: "a file path",
        help: "capacity, with a replica set (--replicas, --hedge, --host-fault, ...): also write one row per jitter "
            + "mode and host: the copies the balancer sent it and their share beside 1/K for a random balancer, its "
            + "successes, failures and busy time, and its ejections.",
        parse: Parsers.text
    ).grouped(.output)

    /// The scenarios as a run with a hosts report needs them: each host's load counted (which
    /// changes no draw), and a warning when no mode goes through a replica set.
    static func countingHostLoads(_ scenarios: [Scenario]) -> (scenarios: [Scenario], warnings: [String]) {
        let warnings =
            scenarios.contains(where: \.runsReplicaSet)
            ? []
            : [
                "'--hosts-report' has no rows: no mode runs through a replica set (--server capacity with --replicas K "
                    + "above 1, --hedge, --host-fault, --retry-host-predicate or --outlier-detection)"
            ]
        return (scenarios.map { $0.countingHostLoads() }, warnings)
    }

    /// The hosts report of the modes' rows: its header, then each mode's hosts in order.
    static func hostsReportText(of rows: [SimulateRow]) -> String {
        reportText(HostRow.columns, of: rows, rows: HostRow.rows(of:))
    }

    /// The timeline of the modes' rows, a mode's buckets at a time.
    static func writeTimeline(of rows: [SimulateRow], to file: AtomicFileWriter) {
        file.write(timelineColumns.header().joined(separator: ",") + "\n")
        for row in rows {
            let timeline = row.report.timeline
            var chunk = ""
            var fillRate: Double? = nil
            var limit: Int? = nil
            for index in 0..<timeline.bucketCount {
                fillRate = timeline.buckets[index].fillRate ?? fillRate
                limit = timeline.concurrencyLimit(inBucket: index) ?? limit
                let expected = row.load.map { load in
                    index < load.attemptsPerBucket.count
                        ? (load.attemptsPerBucket[index] * row.clients, load.retriesPerBucket[index] * row.clients)
                        : (0, 0)
                }
                let line = TimelineRow(
                    jitter: row.scenario.policy.jitter.name, start: timeline.bucketStart(index).seconds,
                    bucket: timeline.buckets[index], expected: expected, fillRate: fillRate, concurrencyLimit: limit)
                chunk += timelineColumns.row(line).joined(separator: ",") + "\n"
            }
            file.write(chunk)
        }
    }

    /// The layer report of the modes' rows: the clients', then each layer's, mode by mode.
    static func layerReportText(of rows: [SimulateRow]) -> String {
        reportText(LayerRow.columns, of: rows, rows: LayerRow.rows(of:))
    }

    /// A side report's CSV: the header of `columns`, then each mode's rows, mode by mode.
    private static func reportText<Row>(
        _ columns: [Column<Row>], of modes: [SimulateRow], rows: (SimulateRow) -> [Row]
    ) -> String {
        var text = columns.header().joined(separator: ",") + "\n"
        for mode in modes {
            for row in rows(mode) { text += columns.row(row).joined(separator: ",") + "\n" }
        }
        return text
    }
}
