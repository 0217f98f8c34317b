import RetrySimulation

/// The busiest bucket of an expected load (``OutageLoad``), for all attempts and for retries only,
/// scaled to the burst's clients: `<prefix>_peak_load`, `<prefix>_peak_load_time_s`,
/// `<prefix>_peak_retry_load`, `<prefix>_peak_retry_time_s`. `formula --outage` and `simulate` both
/// report it, under their own prefix and words.
enum LoadPeakColumns {
    static func columns<Row>(
        prefix: String, attempts: String, retries: String, start: String,
        load: @escaping @Sendable (Row) -> OutageLoad?, clients: @escaping @Sendable (Row) -> Double
    ) -> [Column<Row>] {
        [
            Column("\(prefix)_peak_load", attempts) { row in
                CSVFormat.number(load(row).map { $0.peakAttempts.value * clients(row) })
            },
            Column("\(prefix)_peak_load_time_s", start) { CSVFormat.number(load($0)?.peakAttempts.start.seconds) },
            Column("\(prefix)_peak_retry_load", retries) { row in
                CSVFormat.number(load(row).map { $0.peakRetries.value * clients(row) })
            },
            Column("\(prefix)_peak_retry_time_s", start) { CSVFormat.number(load($0)?.peakRetries.start.seconds) },
        ]
    }
}
