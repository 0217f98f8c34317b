import Foundation

/// The table in the formats of `--format` other than CSV. `textual` names the columns of words,
/// whose cells are never read as numbers.
extension CSVTable {
    /// JSON Lines: one object a row, members in column order (see ``JSONText/cell(_:textual:)``).
    func jsonLines(textual: Set<String>) -> String {
        let isText = header.map(textual.contains)
        var text = ""
        for row in rows {
            text += JSONText.object(row.indices.map { (header[$0], JSONText.cell(row[$0], textual: isText[$0])) })
            text += "\n"
        }
        return text
    }

    /// A GitHub-flavoured Markdown table of the cells as the CSV has them; numeric columns are
    /// right-aligned and a `|` in a cell is escaped.
    func markdown(textual: Set<String>) -> String {
        func cell(_ text: String) -> String { Self.oneLine(text).replacingOccurrences(of: "|", with: "\\|") }
        let numeric = numericColumns(textual: textual)
        var text = "| " + header.map(cell).joined(separator: " | ") + " |\n"
        text += "|" + numeric.map { $0 ? " ---: |" : " --- |" }.joined() + "\n"
        for row in rows { text += "| " + row.map(cell).joined(separator: " | ") + " |\n" }
        return text
    }

    /// `text` on one line: every control character (a line break, a tab, and the rest of C0, DEL
    /// and C1) and every Unicode line or paragraph separator becomes a space, scalar by scalar (a
    /// line break followed by a combining mark is one Character, which a Character test misses).
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isBreaking) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { scalars.append(isBreaking(scalar) ? " " : scalar) }
        return String(scalars)
    }

    private static func isBreaking(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// Whether each column holds numbers only (empty cells and `inf` aside) and is not `textual`.
    func numericColumns(textual: Set<String>) -> [Bool] {
        header.indices.map { column in
            !textual.contains(header[column])
                && rows.allSatisfy { row in
                    let cell = row[column]
                    return cell.isEmpty || cell == "inf" || cell == "-inf" || JSONText.isNumber(cell)
                }
        }
    }
}
