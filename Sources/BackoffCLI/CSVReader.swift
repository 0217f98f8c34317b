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
    /// Records whose field count differs from the header's, or, in a journal, a last record
    /// without its line end (a write cut short).
    let malformedRecords: Int
    /// The first such record: its row (the header's being 1) and its field count.
    let firstMalformed: (row: Int, fields: Int)?

    /// - Parameter journal: whether `text` is a journal that a run appends to (`--resume`), whose
    ///   last record without a line end is a write cut short and is dropped. In a file a person
    ///   wrote, the last line may lack its line end and is read.
    init(text: String, journal: Bool = false) {
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
                        if next == "\"" {
                            field.append("\"")
                            line.append(next)
                        } else {
                            quoted = false
                            pending = next
                        }
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
        var first: (row: Int, fields: Int)?
        for index in records.indices.dropFirst() {
            if records[index].count == header.count && (complete[index] || !journal) {
                kept.append(records[index])
                keptLines.append(lines[index])
            } else {
                malformed += 1
                if first == nil { first = (index + 1, records[index].count) }
            }
        }
        self.records = kept
        self.lines = keptLines
        malformedRecords = malformed
        firstMalformed = first
    }

    /// What is wrong with the records of another width than the header, naming the first: "row 3
    /// has 4 fields where the header has 3 (and 2 more rows of another width)"; `nil` when none is.
    var malformedDescription: String? {
        guard let first = firstMalformed else { return nil }
        let more = malformedRecords - 1
        return "row \(first.row) has \(first.fields) field\(first.fields == 1 ? "" : "s") where the header has "
            + "\(header.count)" + (more > 0 ? " (and \(more) more row\(more == 1 ? "" : "s") of another width)" : "")
    }

    /// The largest table `check` and `--resume` read: an eighth of the physical memory (the parsed
    /// records take several times the text).
    static var fileLimit: Int { Int(ProcessInfo.processInfo.physicalMemory / 8) }

    /// Reads the table at `path` for `command`, refusing with a usage error that names the file and
    /// `expected` (what the file should be) anything that is not one: a missing file, a directory
    /// or a device (refused before any byte is read, so `/dev/zero` costs nothing), a file larger
    /// than ``fileLimit``, or bytes that are not UTF-8 text.
    init(file path: String, command: String, expected: String, journal: Bool = false) throws(CommandLineError) {
        func refuse(_ reason: String) -> CommandLineError {
            .usage("'\(path)' \(reason): expected \(expected)", command: command)
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .usage("No such file '\(path)': expected \(expected)", command: command)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw refuse("is a directory")
        default: throw refuse("is not a regular file (a device or a pipe)")
        }
        let data: Data
        do {
            data = try BoundedFile.read(path, limit: Self.fileLimit)
        } catch {
            switch error {
            case .unreadable: throw .failure("Cannot read '\(path)': \(String(cString: strerror(errno)))")
            case .tooLarge:
                throw refuse(
                    "is larger than \(MemoryLimit.text(Double(Self.fileLimit))), more than a table can be read in")
            }
        }
        guard !data.contains(0), let text = String(data: data, encoding: .utf8) else {
            throw refuse("is not UTF-8 text")
        }
        self.init(text: text, journal: journal)
        // A table a person hands over is read whole or not at all: a row of another width is a
        // mistake to name, not a row to drop (a journal's cut-short last row is dropped, and
        // its point run again).
        if !journal, let problem = malformedDescription { throw refuse(problem) }
    }

    /// The index of the column named `name`.
    func column(_ name: String) -> Int? { header.firstIndex(of: name) }
}
