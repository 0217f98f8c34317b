import Foundation
import Parallelism
import RetrySimulation
import Stochastics

/// `backoff tune`: the policy that does best on an objective column of `simulate` while its
/// constraints hold, in the scenario the other options fix.
///
/// The search: a Latin hypercube of `--design` points over the ranges for each combination of the
/// choices, then GSL's Nelder-Mead simplex (`nmsimplex2`) from the best feasible points over the
/// continuous ranges (integers and choices held), the objective plus a penalty for violated
/// constraints. Every candidate runs on the same seed (common random numbers), so candidates differ
/// by their policy, not by their luck. The best feasible candidate is then run on a fresh seed; if
/// its constraints fail there, `tune` says so and exits 1.
struct TuneCommand: RunnableCommand {
    static let name = "tune"
    static let abstract = "Find the policy that does best on a simulate column while constraints on other columns hold."
    static let discussion = """
        Takes simulate's options to fix the scenario, --objective COLUMN (minimised; --maximize to maximise), \
        --constraint 'COLUMN<=VALUE' or 'COLUMN>=VALUE' (repeatable), and --search over policy options: \
        ranges NAME=A..B (durations on a log scale across a factor of 10 or more) and choices NAME=a|b|c; \
        NAME may be a layer's key (layer2.max-attempts) or a key of an option's given spec \
        (outlier-detection.count=2..10 with --outlier-detection consecutive-5xx). \
        A Latin hypercube of --design points per choice combination, then a Nelder-Mead simplex (GSL nmsimplex2) \
        from the best feasible points, all on the same seed. One row per candidate, the best feasible first, \
        with feasible and pareto (no other candidate at least as good on the objective and every constrained \
        column, and better on one). The winner is re-run on a fresh seed; exit 1 when its constraints fail \
        there, or when no candidate is feasible (stderr names the constraint closest to holding).
        """
    static let objective = Option<String?>.optional(
        "objective", "column", form: "a numeric column of simulate, e.g. p99_total_wait_s",
        help: "The simulate column to minimise (or maximise with --maximize).", parse: Parsers.text)
    static let maximize = Option<Bool>.flag("maximize", help: "Maximise the objective instead.")
    static let search = Option<String?>.optional(
        "search", "space", form: TuneSearchSpace.form,
        help: "The policy options to search, and their ranges or choices.",
        parse: Parsers.text)
    static let design = Option(
        "design", "count", kind: .count, default: "16", form: Parsers.countForm(designRange, example: 16),
        help: "Latin-hypercube points per combination of choices.", parse: Parsers.count(in: designRange))
    /// The design's size: its cost grows with the square of the points (each is kept apart from the others).
    static let designRange = 2...10_000
    static let constraint = Option<[SearchConstraint]>.repeatable(
        "constraint", "COLUMN<=VALUE",
        form: "COLUMN<=VALUE or COLUMN>=VALUE with a numeric simulate column, e.g. peak_retry_load<=120",
        help: "A bound on a simulate column, COLUMN<=VALUE or COLUMN>=VALUE (repeatable).",
        parse: SearchConstraint.init(parsing:))
    static let ownSpecs = [objective.spec, maximize.spec, constraint.spec, search.spec, design.spec]
    static var specs: [OptionSpec] {
        SimulateCommand.specs.filter {
            ![
                SimulateCommand.timeline.name, SimulateCommand.requests.name, LayerOptions.report.name,
                SimulateCommand.hostsReport.name,
            ].contains($0.name)
        }
            + ownSpecs
    }
    static var columns: [ColumnDocumentation] {
        [
            ColumnDocumentation(
                name: "(candidate columns)",
                meaning:
                    "the policy columns, each searched choice, the objective and every constrained column, feasible, pareto, phase, candidate"
            )
        ]
    }
    static let example =
        "backoff tune --clients 2000 --server outage:2s --objective p99_total_wait_s "
        + "--constraint 'peak_retry_load<=120' --constraint 'give_ups<=0' "
        + "--search 'base=10ms..1s,multiplier=1.5..4,max-attempts=3..12,jitter=full|equal|decorrelated'"

    /// Options tune sets for every candidate itself.
    static let fixedOnly: Set<String> = [
        "seed", "jobs", "output", "max-memory", "generator", "clients", "server", "arrivals",
    ]
    /// The policy options a search may vary.
    static let searchable = [
        "base", "multiplier", "cap", "max-attempts", "max-retries", "jitter", "cap-mode", "increment",
        "decorrelated-factor", "schedule", "budget", "breaker", "throttle", "max-elapsed",
    ]

    let objectiveColumn: String
    let maximizing: Bool
    let constraints: [SearchConstraint]
    let searched: TuneSearchSpace
    let designPoints: Int
    /// The scenario's options as given (tune sets --seed, --jobs and --output itself), by name.
    let scenarioOptions: [NamedValue]
    let seed: UInt64
    let jobs: Int
    let outputPath: String?
    /// How the table is printed (`--format`, `--columns`, `--provenance`).
    let tableOutput: TableOutput

    static func main<Output: TextOutputStream, Errors: TextOutputStream>(
        _ tokens: ArraySlice<ArgumentToken>, standardOutput: inout Output, standardError: inout Errors, terminal: Bool
    ) throws(CommandLineError) -> Int32 {
        try TuneCommand(tokens: tokens).run(standardOutput: &standardOutput, standardError: &standardError)
    }

    init(tokens: some Collection<ArgumentToken>) throws(CommandLineError) {
        let options = try ParsedOptions(command: Self.name, specs: Self.specs, tokens: tokens, fillingIn: false)
        guard let objective = try options(Self.objective) else {
            throw .usage(
                "Missing '--objective <column>': the simulate column to minimise, e.g. p99_total_wait_s",
                command: Self.name)
        }
        do {
            objectiveColumn = try Self.numericColumn(objective)
        } catch {
            throw options.invalid(Self.objective.spec, objective, detail: error.detail)
        }
        maximizing = try options(Self.maximize)
        let constraints = try options(all: Self.constraint)
        self.constraints = constraints
        guard let searchText = try options(Self.search) else {
            throw .usage("Missing '--search <space>': expected \(TuneSearchSpace.form)", command: Self.name)
        }
        do {
            searched = try TuneSearchSpace(searchText, specs: SimulateCommand.specs)
        } catch {
            throw options.invalid(Self.search.spec, searchText, detail: error.detail)
        }
        let layerTexts = options.givenTexts(LayerOptions.layer.name)
        for name in searched.space.names {
            if let (layer, key) = TuneSearchSpace.layerKey(name) {
                guard layer <= layerTexts.count else {
                    throw .usage(
                        "'\(name)' is searched, but only \(layerTexts.count) '--layer' \(layerTexts.count == 1 ? "is" : "are") "
                            + "given", command: Self.name)
                }
                if layerTexts[layer - 1].split(separator: ",").contains(where: { $0.hasPrefix(key + "=") }) {
                    throw .usage(
                        "'\(name)' is both given (in '--layer \(layerTexts[layer - 1])') and searched: give it, or search it",
                        command: Self.name)
                }
            } else if let (option, key) = TuneSearchSpace.specKey(name, specs: SimulateCommand.specs) {
                guard let text = options.givenText(option) else {
                    throw .usage(
                        "'\(name)' is searched, but '--\(option)' is not given: give it a spec that takes '\(key)=', and "
                            + "search that key there", command: Self.name)
                }
                if text.split(separator: ":").contains(where: { $0.hasPrefix(key + "=") }) {
                    throw .usage(
                        "'\(name)' is both given (in '--\(option) \(text)') and searched: give it, or search it",
                        command: Self.name)
                }
            } else if options.givenText(name) != nil {
                throw .usage("'--\(name)' is both given and searched: give it, or search it", command: Self.name)
            }
        }
        if searched.space.dimensions["jitter"] == nil, let jitter = options.givenText("jitter"),
            jitter.contains(",") || jitter == "all"
        {
            throw .usage(
                "'--jitter \(jitter)': tune runs one jitter mode per candidate; search several with --search 'jitter=a|b'",
                command: Self.name)
        }
        designPoints = try options(Self.design)
        let run = try RunOptions(options)
        seed = run.seed
        jobs = run.jobs
        outputPath = try options(TableOptions.output)
        tableOutput = try TableOutput(options)
        // The scenario: every simulate option given, as given (tune sets seed, jobs and output itself).
        let ownValues =
            [RunOptions.seedOption.name, RunOptions.jobsOption.name] + TableOptions.specs.map(\.name)
        var given: [NamedValue] = []
        for name in options.order
        where SimulateCommand.specs.contains(where: { $0.name == name }) && !ownValues.contains(name) {
            for text in options.givenTexts(name) { given.append((name, text)) }
        }
        let jitter = PolicyOptions.jitterName
        if searched.space.dimensions[jitter] == nil && options.givenText(jitter) == nil {
            given.append((jitter, "full"))
        }
        scenarioOptions = given
        // Every candidate's simulate must parse: check every choice and both ends of every range (with
        // the others at their centres) before anything runs, then that something varies.
        var largest = MemoryEstimate()
        for choices in searched.space.choiceCombinations {
            for unit in searched.space.checkpoints {
                let candidate = try Self.command(
                    given + searched.options(searched.space.candidate(unit: unit, choices: choices)))
                if candidate.memoryEstimate.bytes > largest.bytes { largest = candidate.memoryEstimate }
            }
        }
        do {
            try searched.requireVaried()
        } catch {
            throw options.invalid(Self.search.spec, searchText, detail: error.detail)
        }
        // What the search holds: the largest candidate's run, --jobs at once, and every row it keeps
        // (the design's points for each combination of choices, about 8 KB each as text by column).
        let (points, together) = (designPoints, jobs)
        let rows = Double(points * searched.space.choiceCombinations.count)
        let kept = MemoryEstimate.count(rows)
        let estimate =
            largest.times(together, "\(together) candidates at once (--jobs)")
            + MemoryEstimate([
                .init(
                    parameter: "--design \(points)", what: "\(kept) candidates' rows kept, about 8 KB each",
                    bytes: rows * 8192)
            ])
        try MemoryLimit(options).check(estimate, command: Self.name)
    }
}
