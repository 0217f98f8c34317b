import BackoffPolicies
import Foundation
import RetrySimulation

/// `backoff explain`: a policy described for a person. Every number in it is one that `schedule`,
/// `formula`, `waits` or `simulate` prints for the same options, read from those commands' own
/// tables (run here, in process), beside `lint`'s findings:
///
/// - the schedule: each retry's window and the expected start of each attempt (`schedule`);
/// - the total wait: its mean and the share of waits at the cap (`formula`), p50 and p99 (`waits`),
///   the longest possible (`formula`);
/// - an outage of `--outage` with `--clients` clients failing at once: the first attempts, the peak
///   retry load, the give-ups and the drain time (`simulate --server outage:D`);
/// - across layers: the amplification of a request that fails everywhere (`lint`).
struct ExplainCommand: RunnableCommand {
    static let name = "explain"
    static let abstract =
        "Describe a policy for a person: its schedule, its total wait, an outage, and lint's findings."
    static let discussion = """
        Takes what lint takes. Each number is one that schedule, formula, waits or simulate prints for the \
        same options (their tables are computed here): the windows are schedule's (for the decorrelated \
        modes, those of its one seeded request), the mean total wait and the share at the cap formula's, \
        p50 and p99 waits' (10,000 seeded requests), and the outage simulate's with --server outage:D. \
        --format text (aligned, at most 100 columns or the terminal's width), markdown (for a pull request comment) or json (one \
        object per jitter mode, a line each, numbers as numbers and null where a number has no value).
        """
    static let format = Option(
        "format", "format", default: "text", form: "text, markdown or json",
        help: "How to print: text (aligned), markdown (a pull request comment) or json (JSON Lines).",
        choices: ExplanationFormat.self)
    static let specs: [OptionSpec] =
        LintSubject.specs + [ScenarioOptions.clients.spec, OutageScenario.outage.spec, format.spec]
        + RunOptions.seedSpecs
        + [TableOptions.output.spec]
    static let columns: [ColumnDocumentation] = []
    static let example = "backoff explain --preset aws-sdk-standard --clients 1000 --outage 2s --format markdown"

    static func main<Output: TextOutputStream, Errors: TextOutputStream>(
        _ tokens: ArraySlice<ArgumentToken>, standardOutput: inout Output, standardError: inout Errors, terminal: Bool
    ) throws(CommandLineError) -> Int32 {
        let options = try ParsedOptions(command: name, specs: specs, tokens: tokens)
        let (subjects, warnings) = try LintSubject.read(options)
        let format = try options(Self.format)
        let scenario = try OutageScenario(options, command: name)
        let output = try options(TableOptions.output).map { path throws(CommandLineError) in
            try AtomicFileWriter(path: path)
        }
        for warning in warnings { standardError.write("backoff: warning: \(warning)\n") }

        // The options the four commands share with this one, as given.
        let given = OutageScenario.given(options)
        let schedule = try ScheduleCommand.rows(given)
        let formula = try FormulaCommand.rows(given)
        let waits = try WaitsCommand.rows(given)
        let simulate = try scenario.rows(given)

        let explanations = subjects.map { subject in
            let mode = subject.policy.jitter.name
            return Explanation(
                policy: subject.policy, clients: scenario.clients, outage: scenario.outage,
                schedule: schedule.filter { $0["jitter"] == mode },
                formula: formula.first { $0["jitter"] == mode } ?? [:],
                waits: waits.first { $0["jitter"] == mode } ?? [:],
                outageRow: simulate.first { $0["jitter"] == mode } ?? [:],
                amplification: subject.tiers.count > 1 ? subject.amplification : nil, findings: subject.findings,
                width: min(100, TableOutput.width(environment: ProcessInfo.processInfo.environment)))
        }
        let text = explanations.map { $0.rendered(format) }.joined(separator: format == .json ? "\n" : "\n\n") + "\n"
        try output.deliver(text, orTo: &standardOutput)
        return 0
    }
}

/// How `explain` prints.
enum ExplanationFormat: String, CaseIterable, Sendable {
    case text, markdown, json
}
