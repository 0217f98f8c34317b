import BuildInfo
import Foundation
import Stochastics

/// How a table command prints its table: `--format`, `--columns` and `--provenance`, read once and
/// applied to the finished table (the command computes the same table whatever they say, so CSV
/// without them is byte for byte what it always was).
struct TableOutput {
    let format: TableFormat
    let selection: ColumnSelection?
    /// `--provenance`: two columns at the end, `backoff_version` and `gsl_version`.
    let provenance: Bool
    /// The widest line `--format table` prints (read only for that format: the environment costs a
    /// run that prints CSV nothing).
    var width: Int { Self.width(environment: ProcessInfo.processInfo.environment) }
    /// The option `--columns` was read from, for its errors.
    private let options: ParsedOptions

    /// Whether the table is printed as the command computes it: CSV of every column.
    var isPlainCSV: Bool { format == .csv && selection == nil && !provenance }

    /// The width of standard output when it is a terminal, bound by the command line for a run.
    @TaskLocal static var terminalColumns: Int?

    /// The narrowest `--format table` folds a table to.
    static let minimumWidth = 40

    init(_ options: ParsedOptions) throws(CommandLineError) {
        format = try options(TableOptions.format)
        selection = try options(TableOptions.columns)
        provenance = try options(TableOptions.provenance)
        self.options = options
    }

    /// The terminal's width; else `COLUMNS` when it holds a whole number; else 100. At least
    /// ``minimumWidth``.
    static func width(environment: [String: String]) -> Int {
        let columns = terminalColumns ?? environment["COLUMNS"].flatMap { Int($0) } ?? 100
        return max(minimumWidth, columns)
    }

    /// The columns of provenance: this build's version and commit, and the GSL it runs on.
    static var provenanceColumns: [(name: String, value: String)] {
        [("backoff_version", "\(BuildInfo.version)+\(BuildInfo.commit)"), ("gsl_version", GSLLibrary.version)]
    }

    /// Checks `--columns` against the header the command will write, before it runs.
    func check(header: [String], columns documentation: [ColumnDocumentation]) throws(CommandLineError) {
        _ = try positions(in: header + (provenance ? Self.provenanceColumns.map(\.name) : []), documentation)
    }

    /// The table as `--format`, `--columns` and `--provenance` ask, ready to write.
    func text(of table: CSVTable, columns documentation: [ColumnDocumentation]) throws(CommandLineError) -> String {
        var table = table
        if provenance {
            let columns = Self.provenanceColumns
            var extended = CSVTable(header: table.header + columns.map(\.name))
            for row in table.rows { extended.append(row + columns.map(\.value)) }
            table = extended
        }
        if let positions = try positions(in: table.header, documentation) {
            var picked = CSVTable(header: positions.map { table.header[$0] })
            for row in table.rows { picked.append(positions.map { row[$0] }) }
            table = picked
        }
        let textual = Set(documentation.filter(\.holdsText).map(\.name)).union(["backoff_version", "gsl_version"])
        switch format {
        case .csv: return table.text
        case .json: return table.jsonLines(textual: textual)
        case .table: return table.aligned(width: width, textual: textual)
        case .markdown: return table.markdown(textual: textual)
        }
    }

    private func positions(in header: [String], _ documentation: [ColumnDocumentation]) throws(CommandLineError)
        -> [Int]?
    {
        guard let selection else { return nil }
        let parameters = Set(documentation.filter(\.describesParameter).map(\.name))
        do {
            return try selection.positions(in: header, parameters: parameters)
        } catch {
            throw options.invalid(TableOptions.columns, detail: error.detail)
        }
    }
}
