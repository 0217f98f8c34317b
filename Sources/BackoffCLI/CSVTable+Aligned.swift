import Foundation

/// `--format table`: the table for a person at a terminal.
extension CSVTable {
    /// The longest cell or header `--format table` prints; a longer one ends in `…` (the other
    /// formats carry it whole). No wider than ``TableOutput/minimumWidth``, so every line fits.
    static let alignedCellLimit = 40

    /// The table aligned in columns no line of which is wider than `width`: a header with units
    /// (`mean_total_wait_s` is `mean_total_wait (s)`), numbers to 6 significant digits and
    /// right-aligned, words left-aligned. Columns that do not fit beside each other continue in
    /// another block below, which starts again with the first column so its rows can be told
    /// apart; blocks are separated by a blank line.
    func aligned(width: Int, textual: Set<String>) -> String {
        let numeric = numericColumns(textual: textual)
        let names = header.map { Self.shortened(Self.headerWithUnit($0)) }
        let cells = rows.map { row in
            row.indices.map { Self.shortened(numeric[$0] ? Self.readableNumber(row[$0]) : row[$0]) }
        }
        let widths = header.indices.map { column in
            cells.reduce(names[column].count) { max($0, $1[column].count) }
        }
        // Blocks of columns, each as wide as fits; a block after the first repeats column 0 when
        // that fits beside the next column.
        func lineWidth(_ columns: [Int]) -> Int { columns.reduce(-2) { $0 + widths[$1] + 2 } }
        var blocks: [[Int]] = []
        var block: [Int] = []
        for column in header.indices {
            if block.isEmpty || lineWidth(block + [column]) <= width {
                block.append(column)
            } else {
                blocks.append(block)
                block = lineWidth([0, column]) <= width ? [0, column] : [column]
            }
        }
        if !block.isEmpty { blocks.append(block) }

        func line(_ texts: [String], _ columns: [Int]) -> String {
            zip(texts, columns).map { text, column in
                let padding = String(repeating: " ", count: max(0, widths[column] - text.count))
                return numeric[column] ? padding + text : text + padding
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
        return blocks.map { columns in
            ([line(columns.map { names[$0] }, columns)] + cells.map { row in line(columns.map { row[$0] }, columns) })
                .joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    /// `name` with its unit in words: `_s` as ` (s)`.
    static func headerWithUnit(_ name: String) -> String {
        name.hasSuffix("_s") && name.count > 2 ? String(name.dropLast(2)) + " (s)" : name
    }

    /// A number to 6 significant digits (a whole number of up to 15 digits as it is); other
    /// cells as they are.
    static func readableNumber(_ cell: String) -> String {
        let whole = !cell.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        guard JSONText.isNumber(cell), !whole || cell.count > 15, let value = Double(cell) else { return cell }
        let rounded = String(format: "%.6g", value)
        return rounded.contains("e") ? rounded : Double(rounded).map(\.decimalText) ?? rounded
    }

    /// A cell on one line (see ``oneLine(_:)``) of at most ``alignedCellLimit`` characters.
    static func shortened(_ cell: String) -> String {
        let line = oneLine(cell)
        return line.count <= alignedCellLimit ? line : String(line.prefix(alignedCellLimit - 1)) + "…"
    }
}

extension String {
    /// The string without the spaces at its end.
    fileprivate var trimmingTrailingSpaces: String {
        String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)])
    }
}
