/// Options that every table command takes.
enum TableOptions {
    /// `--output FILE`.
    static let output = Option<String?>.optional(
        "output", "file", form: "a file path", help: "Write the table to this file (atomically) instead of stdout.",
        parse: Parsers.text
    ).grouped(.output)

    /// `--format csv|json|table|markdown`.
    static let format = Option(
        "format", "format", default: "csv", form: "csv, json, table or markdown",
        help:
            "How to print the table: csv, json (JSON Lines: an object a row, numbers as numbers, null for empty), "
            + "table (aligned to the terminal's width, units in the header) or markdown.",
        choices: TableFormat.self
    ).grouped(.output)

    /// `--columns a,@group,b`.
    static let columns = Option<ColumnSelection?>.optional(
        "columns", "list", form: ColumnSelection.form,
        help:
            "Print only these columns, in this order; @group picks a group's columns: "
            + ColumnGroup.allCases.map { "@\($0.rawValue) (\($0.meaning))" }.joined(separator: ", ") + ".",
        parse: ColumnSelection.parse
    ).grouped(.output)

    /// `--provenance`.
    static let provenance = Option<Bool>.flag(
        "provenance",
        help: "Add the columns backoff_version (version+commit) and gsl_version, for a table compared later."
    ).grouped(.output)

    /// The options of every table's output: where it goes and how it is printed.
    static let specs = [output.spec, format.spec, columns.spec, provenance.spec]
}
