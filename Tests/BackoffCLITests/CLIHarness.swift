import Foundation

@testable import BackoffCLI

/// Runs `backoff` in process and captures what it writes.
struct Invocation {
    let status: Int32
    let stdout: String
    let stderr: String

    /// `terminal`: run as if stderr were a terminal; `columns`: as if stdout were a terminal that wide.
    init(_ arguments: [String], terminal: Bool = false, columns: Int? = nil) {
        var out = ""
        var err = ""
        status = BackoffCommandLine.run(
            arguments, standardOutput: &out, standardError: &err, standardErrorIsTerminal: terminal,
            standardOutputColumns: columns)
        stdout = out
        stderr = err
    }

    init(_ commandLine: String) { self.init(commandLine.split(separator: " ").map(String.init)) }

    /// The CSV rows (header included), split into fields.
    var rows: [[String]] {
        stdout.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The value of `column` in data row `row` (0 = first data row).
    func field(_ column: String, row: Int = 0) -> String? {
        guard let index = rows.first?.firstIndex(of: column), rows.count > row + 1 else { return nil }
        return rows[row + 1][index]
    }
}

/// A fresh temporary directory, removed when the value is dropped.
final class TemporaryDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "backoff-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to the file `name` in the directory; its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        let path = file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? [] }
}
