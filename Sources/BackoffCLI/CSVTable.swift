/// A table with a header row, written as CSV with `\n` line ends.
struct CSVTable: Equatable {
    let header: [String]
    private(set) var rows: [[String]] = []
    /// What the reader of the table should know of how it was made, for stderr after the run
    /// (`backoff: warning: ...`); not part of the CSV.
    var notes: [String] = []

    init(header: [String]) {
        self.header = header
    }

    /// Appends a row; it must have one field per column.
    mutating func append(_ row: [String]) {
        precondition(row.count == header.count, "row has \(row.count) fields for \(header.count) columns")
        rows.append(row)
    }

    /// The whole table as CSV text, header first.
    var text: String {
        var text = ""
        for row in [header] + rows {
            text += CSVFormat.record(row)
            text += "\n"
        }
        return text
    }
}
