import BackoffPolicies
import RetrySimulation
import Stochastics

/// `backoff schedule`: the attempts of one request whose every attempt fails.
struct ScheduleCommand: BackoffCommand {
    static let name = "schedule"
    static let abstract = "List the attempts of one request whose every attempt fails: when each starts and what it waited."
    static let discussion = """
        Without jitter this is the policy's exact schedule. With a random jitter mode it is one seeded \
        draw, with the window each wait was drawn from and the expected start time from the closed form.
        """
    static let specs = PolicyOptions.specs(defaultJitter: "none") + RunOptions.seedSpecs + [TableOptions.output.spec]
    static let columns: [(name: String, meaning: String)] = [
        ("attempt", "attempt number, 1 = the first attempt"),
        ("wait_s", "seconds waited before this attempt (0 for the first)"),
        ("start_s", "seconds from the first attempt to this one"),
        ("jitter", "jitter mode"),
        ("window_low_s", "lower end of the interval the wait was drawn from, seconds"),
        ("window_high_s", "upper end of that interval, seconds"),
        ("expected_start_s", "closed-form expected start time E[t_k], seconds (empty with --max-elapsed and jitter)"),
    ]
    static let example = "backoff schedule --base 100ms --multiplier 2 --max-attempts 4"

    let policy: PolicyOptions
    let randomness: RunOptions
    let outputPath: String?

    init(_ options: ParsedOptions) throws(CommandLineError) {
        policy = try PolicyOptions(options, defaultJitter: "none")
        randomness = try RunOptions(options)
        outputPath = try options(TableOptions.output)
    }

    var warnings: [String] { policy.warnings }

    func run() throws(CommandLineError) -> CSVTable {
        var table = CSVTable(header: Self.columns.map(\.name))
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
                table.append([
                    String(attempt), CSVFormat.seconds(nanoseconds: wait), CSVFormat.seconds(nanoseconds: state.totalWait),
                    policy.jitter.name, CSVFormat.number(window.lowerBound / 1e9), CSVFormat.number(window.upperBound / 1e9),
                    CSVFormat.number(expected?[attempt - 1]),
                ])
            }
            append(wait: 0, window: 0...0)
            while true {
                let window = policy.waitWindow(after: state)
                guard let wait = policy.nextWait(after: &state, elapsed: state.totalWait, using: &random) else { break }
                attempt += 1
                append(wait: wait, window: window)
            }
        }
        return table
    }
}
