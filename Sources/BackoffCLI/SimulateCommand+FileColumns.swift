import RetrySimulation
import Stochastics

/// The columns of the side files: `--timeline FILE` and `--requests FILE`.
extension SimulateCommand {
    /// One row of `--timeline FILE` per bucket: a mode's bucket and its expected load.
    struct TimelineRow {
        let jitter: String
        let start: Double
        let bucket: LoadTimeline.Bucket
        let expected: (attempts: Double, retries: Double)?
        /// The limiters' fill rate as of the bucket's end (the last answer's, carried forward).
        let fillRate: Double?
        /// The clients' concurrency limit as of the bucket's end (carried forward the same way).
        let concurrencyLimit: Int?
    }

    /// The columns of `--timeline FILE`.
    static let timelineColumns: [Column<TimelineRow>] = [
        Column("jitter", "jitter mode") { $0.jitter }.holdingText(),
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
        Column(
            "concurrency_limit",
            "--limit: the clients' adaptive concurrency limit at the bucket's end, attempts in flight (empty: none)"
        ) { $0.concurrencyLimit.map(String.init) ?? "" },
    ]

    /// The columns of `--requests FILE`: one row per request, a mode's jitter name with its record.
    static let requestColumns: [Column<(jitter: String, request: RequestRecord)>] = [
        Column("jitter", "jitter mode") { $0.jitter }.holdingText(),
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
        }.holdingText(),
        Column("total_wait_s", "the request's backoff waits and rate-limiter token waits, seconds") {
            CSVFormat.seconds(nanoseconds: $0.request.totalWait.wholeNanoseconds)
        },
    ]
}
