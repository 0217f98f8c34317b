import BackoffPolicies

/// `backoff limiter`: replays a log of requests and responses through the AWS SDKs' client-side rate
/// limiter and prints its state after each event.
struct LimiterCommand: BackoffCommand {
    static let name = "limiter"
    static let abstract =
        "Replay a log of sends, successes and throttles through the AWS adaptive rate limiter: its state after each."
    static let discussion = """
        The events file is CSV with the columns time_s (seconds, not decreasing) and event (send, success or \
        throttle: a non-throttling error counts as a success, as botocore counts it). The limiter is created at \
        the first event's time. A send waits for a token once a throttle has enabled the limiter; the events \
        after it take effect no earlier than its token (at_s), as in one thread of a client. scripts/conformance \
        drives botocore's own limiter through the same files and compares every state to 1e-9.
        """
    static let throttle = Option(
        "throttle", "limiter", default: "aws-adaptive", form: "aws-adaptive or aws-adaptive:sdk=botocore",
        help: "The client-side rate limiter: aws-adaptive[:sdk=botocore] (the other SDKs are not modelled yet).",
        parse: parseThrottle)
    static let eventsFile = Option<LimiterEvents?>.optional(
        "events", "file", form: "a CSV file with the columns time_s,event (send, success or throttle)",
        help: "The log to replay: one row per event, times in seconds, not decreasing.", parse: LimiterEvents.read)
    static let specs = [throttle.spec, eventsFile.spec, TableOptions.output.spec]

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
        Column("event", "send, success or throttle") { $0.event.kind.rawValue },
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
        },
    ]

    static var columns: [ColumnDocumentation] { table.map(\.documentation) }

    static let example = "backoff limiter --events throttles.csv"

    let events: LimiterEvents
    let outputPath: String?

    init(_ options: ParsedOptions) throws(CommandLineError) {
        _ = try options(Self.throttle)
        guard let events = try options(Self.eventsFile) else {
            throw .usage("'--events FILE' is required: the log to replay (columns time_s,event)", command: Self.name)
        }
        self.events = events
        outputPath = try options(TableOptions.output)
    }

    func run() throws(CommandLineError) -> CSVTable {
        var table = CSVTable(header: Self.table.header())
        for row in Self.replay(events) { table.append(Self.table.row(row)) }
        return table
    }

    /// The limiter's state after each event: created at the first event's time; each event takes
    /// effect at its time or, if later, when the token of the send before it was granted.
    static func replay(_ events: LimiterEvents) -> [Row] {
        guard let first = events.events.first else { return [] }
        var limiter = AdaptiveRateLimiter(createdAt: first.time)
        var clock = first.time
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
            }
            return Row(row: index + 2, event: event, at: at, delay: delay, limiter: limiter)
        }
    }

    /// `aws-adaptive` or `aws-adaptive:sdk=botocore`.
    @Sendable static func parseThrottle(_ text: String) throws(InvalidValue) -> String {
        switch text {
        case "aws-adaptive", "aws-adaptive:sdk=botocore": return "botocore"
        case let other where other.hasPrefix("aws-adaptive:sdk="):
            throw InvalidValue(
                "'\(other.dropFirst("aws-adaptive:sdk=".count))' is not a modelled SDK: botocore is (java-v2, go-v2 "
                    + "and smithy-swift are not modelled yet)")
        default: throw InvalidValue()
        }
    }
}
