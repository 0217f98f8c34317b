import BackoffPolicies

/// The side files of `waits`: `--samples FILE` (a row per run) and `--wait-samples FILE` (a row per
/// wait).
extension WaitsCommand {
    /// One row of `--samples FILE` per run: a mode, the run's number and its total wait.
    static let sampleColumns: [Column<(jitter: String, run: Int, totalWait: Int64)>] = [
        Column("jitter", "jitter mode") { $0.jitter }.holdingText(),
        Column("run", "the run's number, from 1") { String($0.run) },
        Column("total_wait_s", "the run's total wait, seconds") { CSVFormat.seconds(nanoseconds: $0.totalWait) },
    ]
    /// One row of `--wait-samples FILE` per wait: a mode, the run, the retry and its wait.
    static let waitSampleColumns: [Column<(jitter: String, run: Int, retry: Int, wait: Int64)>] = [
        Column("jitter", "jitter mode") { $0.jitter }.holdingText(),
        Column("run", "the run's number, from 1") { String($0.run) },
        Column("retry", "the retry the wait came before, from 1") { String($0.retry) },
        Column("wait_s", "the wait, seconds") { CSVFormat.seconds(nanoseconds: $0.wait) },
    ]

    /// Writes every retry's wait of every mode's runs, drawn again from the same streams.
    func writeWaitSamples(to file: AtomicFileWriter, seeds: [UInt64]) throws(CommandLineError) {
        file.write(Self.waitSampleColumns.header().joined(separator: ",") + "\n")
        var chunk = ""
        do {
            for (experiment, seed) in zip(experiments, seeds) {
                let name = experiment.policy.jitter.name
                try experiment.forEachRunsWaits(seed: seed, algorithm: randomness.generator) { run, waits in
                    for (retry, wait) in waits.enumerated() {
                        chunk += Self.waitSampleColumns.row((name, run + 1, retry + 1, wait)).joined(separator: ",")
                        chunk += "\n"
                    }
                    if chunk.utf8.count > 1 << 16 {
                        file.write(chunk)
                        chunk = ""
                    }
                }
            }
        } catch {
            throw .failure("\(error)")
        }
        file.write(chunk)
        try file.commit()
    }
}
