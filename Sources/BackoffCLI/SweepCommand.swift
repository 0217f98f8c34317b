import Foundation
import RetrySimulation

/// `backoff sweep <command>`: runs a command over the cartesian product of option lists and ranges,
/// one row per point, in grid order, in parallel, sharded, resumable.
struct SweepCommand: RunnableCommand {
    static let name = "sweep"
    static let abstract = "Run waits, simulate or formula over a grid of parameters: one CSV row per point."
    static let discussion = """
        Every option of the swept command may take a list (--multiplier 1.5,2,3), an arithmetic range \
        (--clients 10..190:10) or a geometric one (--base 10ms..1s*10); --jitter all means the four modes. \
        The grid is the cartesian product, first option outermost. Each point's seed derives from the root \
        --seed and the point's own parameters, so a point gives the same numbers in any grid, and its row \
        can be rerun alone with the seed it reports. Rows come in grid order and are byte-identical \
        whatever --jobs is. With --output FILE, finished rows are kept in FILE.partial until the sweep \
        completes (a device or pipe such as /dev/null gets the rows as they come); after an interruption, the same \
        command with --resume FILE runs only the missing points.
        """
    static var sweptCommands: [any BackoffCommand.Type] {
        [WaitsCommand.self, SimulateCommand.self, FormulaCommand.self]
    }
    /// Options of the swept command that a sweep does not pass on.
    static let unsweepable: Set<String> = [
        TableOptions.output.name, TableOptions.format.name, TableOptions.columns.name, TableOptions.provenance.name,
        WaitsCommand.samples.name, SimulateCommand.timeline.name,
        SimulateCommand.requests.name, SimulateCommand.hostsReport.name, RunOptions.jobsSpec.name,
        MemoryLimit.option.name, ProgressLine.option.name,
    ]

    static let jobs = RunOptions.jobsOption.withHelp("Points run at the same time. Default: the number of cores.")
    /// The K-th of N slices.
    struct Shard: Sendable {
        let k: Int
        let n: Int
    }
    static let shard = Option<Shard?>.optional(
        "shard", "K/N", form: "K/N with 1 <= K <= N <= \(SweepAxis.pointLimit), e.g. 2/8",
        help: "Run only the K-th of N contiguous slices of the grid (1 <= K <= N).",
        parse: Parsers.form { text in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false).map {
                ValueParser.integer(String($0))
            }
            guard parts.count == 2, let k = parts[0], let n = parts[1], (1...SweepAxis.pointLimit).contains(n),
                (1...n).contains(k)
            else { return nil }
            return Shard(k: k, n: n)
        })
    static let resume = Option<String?>.optional(
        "resume", "file", form: "the --output file of an earlier run of the same sweep",
        help: "Complete the table in this file (and FILE.partial): run only the points it lacks, write it whole.",
        parse: Parsers.text)
    static let progressFlag = ProgressLine.option
    static let dryRunFlag = Option<Bool>.flag("dry-run", help: "List the points and their seeds without running them.")
    static let force = Option<Bool>.flag("force", help: "Allow a grid of more than 10,000,000 points.")
    static let output = TableOptions.output.withHelp(
        "Write the table to this file (rows kept in FILE.partial until done).")
    static let specs = [
        jobs.spec, shard.spec, resume.spec, progressFlag.spec, dryRunFlag.spec, force.spec, output.spec,
        TableOptions.format.spec, TableOptions.columns.spec, TableOptions.provenance.spec,
        MemoryLimit.option.spec.grouped(.command),
    ]
    static let columns = [
        ColumnDocumentation(
            name: "sweep_<option>",
            meaning: "one column per varied option, in the order given (durations as sweep_<option>_s, in seconds)"),
        ColumnDocumentation(
            name: "<command columns>", meaning: "the swept command's own columns, with the same names and units"),
        ColumnDocumentation(
            name: "point_id", meaning: "16 hex digits identifying the point's parameters (used by --resume)"),
    ]
    static let example = "backoff sweep waits --multiplier 1.5,2,3 --max-attempts 3..7:2 --jitter all --runs 10000"

    let grid: SweepGrid
    let header: [String]
    let jobs: Int
    /// The half-open range of point indices this shard runs.
    let points: Range<Int>
    let outputPath: String?
    let resume: Bool
    /// Report progress on stderr; `rewriteProgressLine` when stderr is a terminal.
    let progress: Bool
    let rewriteProgressLine: Bool
    let dryRun: Bool
    /// `--format`, `--columns`, `--provenance`; a sweep that uses none streams CSV rows as they end.
    let tableOutput: TableOutput
    /// The swept command's columns, for `--columns @group` and JSON's strings.
    let documentation: [ColumnDocumentation]
    /// Runs one point and returns its row (varied values, the command's row, point_id).
    let runPoint: @Sendable (Int) throws(CommandLineError) -> [String]

    static func main<Output: TextOutputStream, Errors: TextOutputStream>(
        _ tokens: ArraySlice<ArgumentToken>, standardOutput: inout Output, standardError: inout Errors, terminal: Bool
    ) throws(CommandLineError) -> Int32 {
        try SweepCommand(tokens: tokens, standardErrorIsTerminal: terminal)
            .run(standardOutput: &standardOutput, standardError: &standardError)
    }

    init(tokens: some Collection<ArgumentToken>, standardErrorIsTerminal: Bool = false) throws(CommandLineError) {
        let names = Self.sweptCommands.map { $0.name }
        guard let first = tokens.first, case .word(let commandName) = first.kind else {
            if let first = tokens.first, first.kind == .option(name: "help", attachedValue: nil) {
                throw .help(HelpRenderer.help(for: Self.name))
            }
            throw .usage(
                "Missing the command to sweep: expected one of \(names.joined(separator: ", "))", command: Self.name)
        }
        guard let command = Self.sweptCommands.first(where: { $0.name == commandName }) else {
            let hint = Suggestion.closest(to: commandName, among: names).map { " Did you mean '\($0)'?" } ?? ""
            throw .usage(
                "Cannot sweep '\(commandName)'.\(hint) Expected one of \(names.joined(separator: ", "))",
                command: Self.name)
        }
        self = try Self.make(command, tokens: tokens.dropFirst(), terminal: standardErrorIsTerminal)
    }

    init(
        grid: SweepGrid, header: [String], documentation: [ColumnDocumentation], options: ParsedOptions,
        terminal: Bool,
        runPoint: @escaping @Sendable (Int) throws(CommandLineError) -> [String]
    ) throws(CommandLineError) {
        self.grid = grid
        self.header = header
        self.runPoint = runPoint
        jobs = try options(Self.jobs) ?? RunOptions.cores
        progress = try options(Self.progressFlag) || terminal
        rewriteProgressLine = terminal
        dryRun = try options(Self.dryRunFlag)
        tableOutput = try TableOutput(options)
        // A dry run prints the points (point, the varied options, seed, point_id): its columns
        // are checked when it prints them.
        if !dryRun { try tableOutput.check(header: header, columns: documentation) }
        self.documentation = documentation
        let resumePath = try options(Self.resume)
        if let resumePath, !tableOutput.isPlainCSV {
            throw .usage(
                "'--resume \(resumePath)' completes a CSV table, which --format, --columns and --provenance change: "
                    + "resume without them", command: Self.name)
        }
        let output = try options(Self.output)
        if let resumePath, let output, output != resumePath {
            throw .usage(
                "'--resume \(resumePath)' completes that file; '--output' must name the same file or be left out",
                command: Self.name)
        }
        outputPath = resumePath ?? output
        resume = resumePath != nil
        if let resumePath, AtomicFileWriter.isSpecialFile(resumePath) {
            throw .usage(
                "'--resume \(resumePath)' is not a regular file; expected the --output file of an earlier run of the same sweep",
                command: Self.name)
        }
        if let outputPath, !resume, !AtomicFileWriter.isSpecialFile(outputPath),
            FileManager.default.fileExists(atPath: Self.journalPath(outputPath))
        {
            throw .usage(
                "'\(Self.journalPath(outputPath))' holds the rows of an interrupted sweep: add '--resume \(outputPath)' to complete it, or remove the file",
                command: Self.name)
        }
        if let shard = try options(Self.shard) {
            // In 128 bits: the grid's points (up to Int.max under --force) times K.
            let (count, k, n) = (Int128(grid.pointCount), Int128(shard.k), Int128(shard.n))
            points = Int(count * (k - 1) / n)..<Int(count * k / n)
        } else {
            points = 0..<grid.pointCount
        }
    }

    /// Where finished rows are kept until the sweep completes.
    static func journalPath(_ output: String) -> String { output + ".partial" }
}
