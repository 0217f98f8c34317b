/// Options that every table command takes.
enum TableOptions {
    /// `--output FILE`.
    static let output = Option<String?>.optional(
        "output", "file", form: "a file path", help: "Write the table to this file (atomically) instead of stdout.",
        parse: Parsers.text
    ).grouped(.output)
}
