import BackoffPolicies
import RetrySimulation
import Stochastics

/// `backoff schedule`: the attempts of one request whose every attempt fails.
struct ScheduleCommand: BackoffCommand {
    static let name = "schedule"
    static let abstract =
        "List the attempts of one request whose every attempt fails: when each starts and what it waited."
    static let discussion = """
        Without jitter this is the policy's exact schedule. With a random jitter mode it is one seeded \
        draw, with the window each wait was drawn from and the expected start time from the closed form.
        """
    static let specs =
        PolicyOptions.specs(defaultJitter: "none") + RunOptions.seedSpecs + TableOptions.specs
        + [MemoryLimit.option.spec]
    /// What one row is written from: one attempt of the request.
    struct Row {
        let attempt: Int
        let wait: Int64
        let start: Int64
        let jitter: Jitter
        let window: ClosedRange<Double>
        let expectedStart: Double?
    }

    /// The table's columns, in order; new columns go at the end.
    static let table: [Column<Row>] = [
        Column("attempt", "attempt number, 1 = the first attempt") { String($0.attempt) },
        Column("wait_s", "seconds waited before this attempt (0 for the first)") {
            CSVFormat.seconds(nanoseconds: $0.wait)
        },
        Column("start_s", "seconds from the first attempt to this one") { CSVFormat.seconds(nanoseconds: $0.start) },
        PolicyColumns.jitterMode.column { $0.jitter },
        Column("window_low_s", "lower end of the interval the wait was drawn from, seconds") {
            CSVFormat.number($0.window.lowerBound / 1e9)
        },
        Column("window_high_s", "upper end of that interval, seconds") { CSVFormat.number($0.window.upperBound / 1e9) },
        Column(
            "expected_start_s", "closed-form expected start time E[t_k], seconds (empty with --max-elapsed and jitter)"
        ) {
            CSVFormat.number($0.expectedStart)
        },
    ]

    static var columns: [ColumnDocumentation] { table.map(\.documentation) }

    static let example = "backoff schedule --base 100ms --multiplier 2 --max-attempts 4"

    let policy: PolicyOptions
    let randomness: RunOptions
    let outputPath: String?

    /// A row of about 200 bytes per attempt of each mode.
    var memoryEstimate: MemoryEstimate {
        let rows = policy.policies.reduce(0.0) { $0 + Double($1.maxAttempts) }
        return MemoryEstimate([
            .init(
                parameter: "--max-attempts", what: "\(MemoryEstimate.count(rows)) rows of about 200 bytes",
                bytes: rows * 200)
        ])
    }

    init(_ options: ParsedOptions) throws(CommandLineError) {
        policy = try PolicyOptions(options, defaultJitter: "none")
        randomness = try RunOptions(options)
        outputPath = try options(TableOptions.output)
    }

    var warnings: [String] { policy.warnings }

    func run() throws(CommandLineError) -> CSVTable {
        var table = CSVTable(header: Self.table.header())
        for policy in policy.policies {
            let seed = RandomStream.seed(root: randomness.seed, jitter: policy.jitter)
            var random: RandomGenerator
            do { random = try RandomGenerator(algorithm: randomness.generator, seed: seed) } catch {
                throw .failure("\(error)")
            }
            let expected = policy.expectedStartTimes
            var state = BackoffState(policy: policy)
            var attempt = 1
            func append(wait: Int64, window: ClosedRange<Double>) {
                table.append(
                    Self.table.row(
                        Row(
                            attempt: attempt, wait: wait, start: state.totalWait, jitter: policy.jitter, window: window,
                            expectedStart: expected?[attempt - 1])))
            }
            append(wait: 0, window: 0...0)
            while true {
                let window = policy.waitWindowNanoseconds(after: state)
                guard let wait = policy.nextWait(after: &state, elapsed: state.totalWait, using: &random) else { break }
                attempt += 1
                append(wait: wait, window: window)
            }
        }
        return table
    }
}
