/// How a table command prints its table (`--format`).
enum TableFormat: String, CaseIterable, Sendable {
    /// RFC 4180 CSV, header first: the default, byte for byte what the command always wrote.
    case csv
    /// JSON Lines: one object per row, members in column order, numbers as numbers, empty cells
    /// as `null` (see ``JSONText/cell(_:textual:)``).
    case json
    /// Aligned for a terminal: units in the header, numbers to 6 significant digits, and the
    /// columns folded into blocks no wider than the terminal.
    case table
    /// A GitHub-flavoured Markdown table of the CSV's own values, for documents and pull requests.
    case markdown
}
