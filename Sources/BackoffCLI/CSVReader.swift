import Foundation

/// Reads CSV as this tool writes it and as spreadsheets export it (RFC 4180: quoted fields may hold
/// commas, doubled quotes and line breaks; `\n` or `\r\n` line ends). Columns are found by name.
struct CSVReader {
    let header: [String]
    /// The data records, each with one field per column (records of another width are dropped and
    /// counted in `malformedRecords`).
    let records: [[String]]
    /// The exact text of each record, without its line end, parallel to `records`.
    let lines: [String]
    /// Records whose field count differs from the header's, or a last record without its line end
    /// (a write cut short).
    let malformedRecords: Int

    init(text: String) {
        var records: [[String]] = []
        var lines: [String] = []
        var fields: [String] = []
        var field = ""
        var line = ""
        var quoted = false
        var atFieldStart = true
        var iterator = text.makeIterator()
        var pending: Character? = nil
        var complete: [Bool] = []
        func endRecord(completed: Bool) {
            fields.append(field)
            records.append(fields)
            lines.append(line)
            complete.append(completed)
            fields = []
            field = ""
            line = ""
            atFieldStart = true
        }
        while let character = pending ?? iterator.next() {
            pending = nil
            if quoted {
                line.append(character)
                if character == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.append("\""); line.append(next) } else { quoted = false; pending = next }
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where atFieldStart:
                quoted = true
                atFieldStart = false
                line.append(character)
            case ",":
                fields.append(field)
                field = ""
                atFieldStart = true
                line.append(character)
            case "\n", "\r\n":
                endRecord(completed: true)
            default:
                field.append(character)
                atFieldStart = false
                line.append(character)
            }
        }
        if !field.isEmpty || !fields.isEmpty || !line.isEmpty { endRecord(completed: false) }

        header = records.first ?? []
        var kept: [[String]] = []
        var keptLines: [String] = []
        var malformed = 0
        for index in records.indices.dropFirst() {
            if records[index].count == header.count && complete[index] {
                kept.append(records[index])
                keptLines.append(lines[index])
            } else {
                malformed += 1
            }
        }
        self.records = kept
        self.lines = keptLines
        malformedRecords = malformed
    }

    /// The largest table `check` and `--resume` read: an eighth of the physical memory (the parsed
    /// records take several times the text).
    static var fileLimit: Int { Int(ProcessInfo.processInfo.physicalMemory / 8) }

    /// Reads a file of at most `limit` bytes; `nil` when it does not exist or cannot be read as UTF-8.
    /// - Throws: ``BoundedFile/Failure/tooLarge(limit:)`` for a larger file (or an endless device).
    init?(path: String, limit: Int) throws(BoundedFile.Failure) {
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: limit)
        } catch {
            if case .tooLarge = error { throw error }
            return nil
        }
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        self.init(text: text)
    }

    /// The index of the column named `name`.
    func column(_ name: String) -> Int? { header.firstIndex(of: name) }
}
