/// A subcommand of `backoff`: its options, its help, and how it turns them into a table.
protocol BackoffCommand {
    static var name: String { get }
    /// One line: what the command does.
    static var abstract: String { get }
    /// A paragraph of help after the abstract.
    static var discussion: String { get }
    static var specs: [OptionSpec] { get }
    /// The table's columns, in order, with their meaning and unit.
    static var columns: [(name: String, meaning: String)] { get }
    static var example: String { get }

    /// Reads and validates every option; throws a usage error before anything runs.
    init(_ options: ParsedOptions) throws(CommandLineError)

    /// Where the table goes (`--output`), or `nil` for stdout.
    var outputPath: String? { get }

    /// Computes the table. Auxiliary files are written atomically and only when the run succeeds.
    func run() throws(CommandLineError) -> CSVTable
}

enum Commands {
    static var all: [any BackoffCommand.Type] {
        [ScheduleCommand.self, FormulaCommand.self, WaitsCommand.self, SimulateCommand.self]
    }

    static func named(_ name: String) -> (any BackoffCommand.Type)? { all.first { $0.name == name } }
}
