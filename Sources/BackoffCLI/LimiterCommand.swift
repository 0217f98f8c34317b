import BackoffPolicies

/// `backoff limiter`: replays a log of requests and responses through the AWS SDKs' client-side rate
/// limiter and prints its state after each event.
struct LimiterCommand: BackoffCommand {
    static let name = "limiter"
    static let abstract =
        "Replay a log of sends, successes and throttles through the AWS adaptive rate limiter: its state after each."
    static let discussion = """
        The events file is CSV with the columns time_s (seconds, not decreasing) and event: send, success, \
        throttle or error (a non-throttling error, which botocore, go-v2 and smithy-swift count as a success and \
        java-v2 ignores). The limiter is created at --created-at, by default the first event's time \
        (java-v2's clocks start at time 0 whatever it is, as its System.nanoTime clock's do at its zero). A send waits for a token once a throttle has enabled the \
        limiter; the events after it take effect no earlier than its token (at_s), as in one thread of a client. \
        smithy-swift and java-v2 feed their limiter only the errors they retry and the final success: list those. \
        scripts/conformance drives botocore's and aws-sdk-go-v2's own limiters through the same files and \
        compares every state to 1e-9.
        """
    static let throttle = Option(
        "throttle", "limiter", default: "aws-adaptive", form: "aws-adaptive[:sdk=\(ThrottleSpec.sdkNames)]",
        help:
            "The client-side rate limiter: aws-adaptive[:sdk=SDK], SDK one of \(ThrottleSpec.sdkNames) (default botocore).",
        parse: parseThrottle)
    static let eventsFile = Option<LimiterEvents?>.optional(
        "events", "file", form: "a CSV file with the columns time_s,event (send, success, throttle or error)",
        help: "The log to replay: one row per event, times in seconds, not decreasing.", parse: LimiterEvents.read)
    static let createdAt = Option<Double?>.optional(
        "created-at", "seconds", kind: .number, form: "a time in seconds >= 0, no later than the first event, e.g. 0",
        help: "When the SDK client (its limiter) was made: its clocks start there (default: the first event's time).",
        parse: Parsers.form(ValueParser.number, where: { $0 >= 0 && $0.isFinite }))
    static let specs = [throttle.spec, eventsFile.spec, createdAt.spec] + TableOptions.specs

    /// What one row is written from: an event and the limiter's state after it.
    struct Row {
        let row: Int
        let event: LimiterEvents.Event
        let at: Double
        let delay: Double?
        let limiter: AdaptiveRateLimiter
    }

    /// The table's columns, in order; new columns go at the end.
    static let table: [Column<Row>] = [
        Column("row", "the event's row in the events file (the header is row 1)") { String($0.row) },
        Column("time_s", "the event's time in the file, seconds") { CSVFormat.number($0.event.time) },
        Column("event", "send, success, throttle or error") { $0.event.kind.rawValue }.holdingText(),
        Column("at_s", "when it took effect: its time, or the end of the token wait before it, seconds") {
            CSVFormat.number($0.at)
        },
        Column("delay_s", "for a send, the wait for its token, seconds (empty for a response)") {
            CSVFormat.number($0.delay)
        },
        Column("measured_rate", "the smoothed response rate, per second") { CSVFormat.number($0.limiter.measuredRate) },
        Column("fill_rate", "the token bucket's fill rate, per second") { CSVFormat.number($0.limiter.fillRate) },
        Column("capacity", "the bucket's capacity, tokens") { CSVFormat.number($0.limiter.capacity) },
        Column("tokens", "tokens in the bucket as of its last refill") { CSVFormat.number($0.limiter.tokens) },
        Column("enabled", "yes once a throttle has turned the limiter on (it stays on)") {
            $0.limiter.isEnabled ? "yes" : "no"
        }.holdingText(),
    ]

    static var columns: [ColumnDocumentation] { table.map(\.documentation) }

    static let example = "backoff limiter --events throttles.csv"

    let sdk: RateLimiterSDK
    let events: LimiterEvents
    let createdAt: Double?
    let outputPath: String?

    init(_ options: ParsedOptions) throws(CommandLineError) {
        sdk = try options(Self.throttle)
        guard let events = try options(Self.eventsFile) else {
            throw .usage("'--events FILE' is required: the log to replay (columns time_s,event)", command: Self.name)
        }
        self.events = events
        createdAt = try options(Self.createdAt)
        if let createdAt, let first = events.events.first, createdAt > first.time {
            throw .usage(
                "'--created-at \(CSVFormat.number(createdAt))' is after the first event (\(CSVFormat.number(first.time)) s): "
                    + "a limiter hears of nothing before it is made", command: Self.name)
        }
        outputPath = try options(TableOptions.output)
    }

    func run() throws(CommandLineError) -> CSVTable {
        var table = CSVTable(header: Self.table.header())
        for row in Self.replay(events, sdk: sdk, createdAt: createdAt) { table.append(Self.table.row(row)) }
        return table
    }

    /// `sdk`'s limiter's state after each event: created at `createdAt` (by default the first
    /// event's time); each event takes effect at its time or, if later, when the token of the send
    /// before it was granted.
    static func replay(_ events: LimiterEvents, sdk: RateLimiterSDK = .botocore, createdAt: Double? = nil) -> [Row] {
        guard let first = events.events.first else { return [] }
        let created = createdAt ?? first.time
        var limiter = AdaptiveRateLimiter(createdAt: created, sdk: sdk)
        var clock = created
        return events.events.enumerated().map { index, event in
            clock = max(clock, event.time)
            let at = clock
            var delay: Double? = nil
            switch event.kind {
            case .send:
                let wait = limiter.acquire(at: clock)
                clock += wait
                delay = wait
            case .success: limiter.recordResponse(throttled: false, at: clock)
            case .throttle: limiter.recordResponse(throttled: true, at: clock)
            case .error where sdk.feeds(success: false, throttled: false, retried: true):
                limiter.recordResponse(throttled: false, at: clock)
            case .error: break
            }
            return Row(row: index + 2, event: event, at: at, delay: delay, limiter: limiter)
        }
    }

    /// `aws-adaptive[:sdk=SDK]`, read as `simulate --throttle` reads it; a replay has one limiter,
    /// so it takes no scope.
    @Sendable static func parseThrottle(_ text: String) throws(InvalidValue) -> RateLimiterSDK {
        guard case .awsAdaptive(let limiter) = try ThrottleSpec.parse(text) else { throw InvalidValue() }
        if text.contains(":scope=") {
            throw InvalidValue("a replay has one limiter: 'scope' is for simulate --throttle")
        }
        return limiter.sdk
    }
}
