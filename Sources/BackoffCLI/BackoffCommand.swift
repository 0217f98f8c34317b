import RetrySimulation

/// What `backoff help` shows for a command.
protocol DocumentedCommand {
    static var name: String { get }
    /// One line: what the command does.
    static var abstract: String { get }
    /// A paragraph of help after the abstract.
    static var discussion: String { get }
    static var specs: [OptionSpec] { get }
    /// The output's columns, in order, with their meaning and unit.
    static var columns: [ColumnDocumentation] { get }
    static var example: String { get }
}

/// A subcommand of `backoff`: it reads its own tokens, runs, and returns the exit code. Every command
/// goes through here; a table command (``BackoffCommand``) gets this from its table.
protocol RunnableCommand: DocumentedCommand {
    /// Runs the command on the tokens after its name. Data goes to `standardOutput` (or the file the
    /// command writes atomically), messages to `standardError`; `terminal` says whether stderr is a
    /// terminal (for progress).
    static func main<Output: TextOutputStream, Errors: TextOutputStream>(
        _ tokens: ArraySlice<ArgumentToken>, standardOutput: inout Output, standardError: inout Errors, terminal: Bool
    ) throws(CommandLineError) -> Int32
}

/// A subcommand of `backoff` that turns its options into one table.
protocol BackoffCommand: RunnableCommand, Sendable {
    /// Reads and validates every option; throws a usage error before anything runs.
    init(_ options: ParsedOptions) throws(CommandLineError)

    /// Where the table goes (`--output`), or `nil` for stdout.
    var outputPath: String? { get }

    /// The table's header for these options (a subset of `columns` where options add columns).
    var header: [String] { get }

    /// Remarks for stderr about options that have no effect (printed as warnings; not errors).
    var warnings: [String] { get }

    /// What the run will allocate, from its parameters, checked against ``MemoryLimit`` before it runs.
    var memoryEstimate: MemoryEstimate { get }

    /// The scenarios the run simulates, whose work ``WorkLimit`` bounds before it runs (none for
    /// a command that simulates no clients).
    var simulatedScenarios: [Scenario] { get }

    /// Computes the table. Auxiliary files are written atomically and only when the run succeeds.
    func run() throws(CommandLineError) -> CSVTable

    /// ``run()``, counting the sessions of its simulations in `progress` as they end (the table
    /// is the same); a command that simulates nothing ignores it.
    func run(progress: RunProgress) throws(CommandLineError) -> CSVTable

    /// The same command with root seed `seed`, as `--seed seed` instead of the one given would have
    /// read it; `nil` for a command without `--seed`. A seed is checked for its form alone, so a
    /// sweep validates a point once for all its seeds.
    func reseeded(_ seed: UInt64) -> Self?
}

extension BackoffCommand {
    func reseeded(_ seed: UInt64) -> Self? { nil }
    func run(progress: RunProgress) throws(CommandLineError) -> CSVTable { try run() }
}

extension BackoffCommand {
    /// Parses the options, checks the memory estimate and `--columns`, warns, opens the output (so an unwritable
    /// destination fails before any work), runs, and writes the table.
    static func main<Output: TextOutputStream, Errors: TextOutputStream>(
        _ tokens: ArraySlice<ArgumentToken>, standardOutput: inout Output, standardError: inout Errors, terminal: Bool
    ) throws(CommandLineError) -> Int32 {
        let options = try ParsedOptions(command: name, specs: specs, tokens: tokens)
        let command = try Self(options)
        try MemoryLimit(options).check(command.memoryEstimate, command: name)
        if specs.contains(WorkLimit.option.spec),
            let note = try WorkLimit(options).check(command.simulatedScenarios, command: name)
        {
            standardError.write("backoff: note: \(note)\n")
        }
        let tableOutput = try TableOutput(options)
        try tableOutput.check(header: command.header, columns: columns)
        for warning in command.warnings { standardError.write("backoff: warning: \(warning)\n") }
        let output = try command.outputPath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        let table: CSVTable
        var explicit = false
        if specs.contains(ProgressLine.option.spec) { explicit = try options(ProgressLine.option) }
        if !command.simulatedScenarios.isEmpty && (terminal || explicit) {
            table = try command.run(reportingTo: &standardError, rewritesLine: terminal, always: explicit)
        } else {
            table = try command.run()
        }
        for note in table.notes { standardError.write("backoff: warning: \(note)\n") }
        let text = try tableOutput.text(of: table, columns: columns)
        try output.deliver(text, orTo: &standardOutput)
        return 0
    }

    var header: [String] { Self.columns.map(\.name) }
    var warnings: [String] { [] }
    var memoryEstimate: MemoryEstimate { MemoryEstimate() }
    var simulatedScenarios: [Scenario] { [] }
}

enum Commands {
    /// The commands that print one table.
    static var tables: [any BackoffCommand.Type] {
        [
            ScheduleCommand.self, FormulaCommand.self, WaitsCommand.self, SimulateCommand.self, PresetsCommand.self,
            LimiterCommand.self,
        ]
    }

    /// Every command, in the order help lists them.
    static var all: [any RunnableCommand.Type] {
        tables + [
            SweepCommand.self, TuneCommand.self, CheckCommand.self, LintCommand.self, ExplainCommand.self,
            CompletionCommand.self, VersionCommand.self,
        ]
    }

    static func named(_ name: String) -> (any RunnableCommand.Type)? { all.first { $0.name == name } }

    static func table(named name: String) -> (any BackoffCommand.Type)? { tables.first { $0.name == name } }
}
