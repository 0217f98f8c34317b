import BuildInfo
import Foundation
import Stochastics
import Testing

@testable import BackoffCLI

/// `--format`, `--columns` and `--provenance` on every table command: each format carries the CSV's
/// values, columns are picked and ordered as asked, and bad lists are usage errors that write nothing.
@Suite struct TableFormatTests {
    /// One small run of each table command (sweep and tune have tests of their own below).
    static let commands: [[String]] = [
        ["schedule", "--jitter", "full"],
        ["formula", "--jitter", "all", "--outage", "2s", "--clients", "100"],
        ["waits", "--runs", "2000"],
        ["simulate", "--clients", "200", "--server", "outage:2s"],
        ["presets"],
        ["lint", "--jitter", "none,full", "--max-amplification", "10"],
    ]

    /// The CSV's rows by column, with the header.
    private func csv(_ run: Invocation) -> (header: [String], rows: [[String]]) {
        let reader = CSVReader(text: run.stdout)
        return (reader.header, reader.records)
    }

    /// JSON Lines has one object per CSV row, members in column order, and each value is the CSV's:
    /// the same number (its very digits: Foundation's parser on Linux does not round every decimal
    /// correctly, so the text is compared; scripts/test-outputs reads them with Python and jq), the
    /// same text, or null for an empty cell.
    @Test(arguments: commands)
    func jsonLinesCarryTheCSVsValues(arguments: [String]) throws {
        let plain = Invocation(arguments)
        let json = Invocation(arguments + ["--format", "json"])
        #expect(plain.status == json.status, "\(json.stderr)")
        let (header, rows) = csv(plain)
        let lines = json.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == rows.count)
        for (line, row) in zip(lines, rows) {
            let data = Data(line.utf8)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object.count == header.count)
            // Member order is the header's.
            let positions = header.map { line.range(of: "\"\($0)\":")?.lowerBound }
            #expect(
                positions.allSatisfy { $0 != nil }
                    && positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
            for (name, cell) in zip(header, row) {
                switch object[name] {
                case is NSNull: #expect(cell.isEmpty, "\(name): null for '\(cell)'")
                case let text as String: #expect(text == cell, "\(name)")
                case is NSNumber:
                    #expect(line.contains("\"\(name)\":\(cell),") || line.hasSuffix("\"\(name)\":\(cell)}"), "\(name)")
                default: Issue.record("\(name): unexpected \(String(describing: object[name]))")
                }
            }
        }
    }

    /// JSON's edge cells: infinity is the string "inf", a whole number beyond 2^53 a string (jq
    /// reads doubles), a word column stays words, and a JSON-invalid number-like text is a string.
    @Test func jsonCellsStayExact() {
        #expect(JSONText.cell("") == "null")
        #expect(JSONText.cell("0.1") == "0.1" && JSONText.cell("-2e-7") == "-2e-7")
        #expect(JSONText.cell("inf") == "\"inf\"" && JSONText.cell("nan") == "\"nan\"")
        #expect(JSONText.cell("9007199254740992") == "9007199254740992")
        #expect(JSONText.cell("9007199254740993") == "\"9007199254740993\"")
        #expect(JSONText.cell("18446744073709551615") == "\"18446744073709551615\"")
        #expect(JSONText.cell("12", textual: true) == "\"12\"")
        for text in ["01", "1.", ".5", "+1", "0x10", "1e", "--1", " 1"] {
            #expect(!JSONText.isNumber(text), "\(text)")
            #expect(JSONText.cell(text).hasPrefix("\""), "\(text)")
        }
        #expect(JSONText.string("a\"b\\c\n\u{1}") == "\"a\\\"b\\\\c\\n\\u0001\"")
    }

    /// Markdown: a header, an alignment row (numbers right), one line per row, `|` escaped.
    @Test(arguments: commands)
    func markdownHasEveryRow(arguments: [String]) {
        let plain = Invocation(arguments)
        let markdown = Invocation(arguments + ["--format", "markdown"])
        let (header, rows) = csv(plain)
        let lines = markdown.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == rows.count + 2)
        #expect(lines.allSatisfy { $0.hasPrefix("| ") || $0.hasPrefix("|") && $0.hasSuffix("|") })
        #expect(lines[1].components(separatedBy: "---").count - 1 == header.count)
        var table = CSVTable(header: ["name", "value"])
        table.append(["a|b", "1"])
        #expect(table.markdown(textual: []) == "| name | value |\n| --- | ---: |\n| a\\|b | 1 |\n")
        // A line break followed by a combining mark is one Character: it is replaced scalar by
        // scalar, so every row stays on one line (found by the fuzzer).
        var broken = CSVTable(header: ["name"])
        broken.append(["a\n\u{6E1}b\r\u{2028}c\u{85}"])
        #expect(broken.markdown(textual: []).unicodeScalars.filter { $0 == "\n" }.count == 3)
        #expect(broken.aligned(width: 40, textual: []).unicodeScalars.filter { $0 == "\n" }.count == 2)
    }

    /// `--format table` at a given width: no line wider, every block but the first starting with
    /// the first column, units in the header, numbers to 6 significant digits.
    @Test(arguments: [60, 80, 120, 200])
    func alignedTablesFitTheTerminal(width: Int) {
        let run = Invocation(
            ["simulate", "--clients", "200", "--server", "outage:2s", "--format", "table"], columns: width)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.count <= width }, "a line wider than \(width)")
        let blocks = run.stdout.components(separatedBy: "\n\n")
        #expect(blocks.count > 1)
        #expect(blocks.allSatisfy { $0.hasPrefix("jitter") }, "each block starts with the first column")
        #expect(run.stdout.contains("mean_total_wait (s)") && !run.stdout.contains("mean_total_wait_s"))
        #expect(CSVTable.readableNumber("0.30000000000000004") == "0.3")
        #expect(CSVTable.readableNumber("123456789") == "123456789")
        #expect(CSVTable.readableNumber("1234.56789") == "1234.57")
        #expect(CSVTable.headerWithUnit("bucket_s") == "bucket (s)" && CSVTable.headerWithUnit("_s") == "_s")
    }

    /// The terminal's width wins over COLUMNS, COLUMNS over the default of 100, and nothing is
    /// narrower than 40.
    @Test func theWidthComesFromTheTerminalThenColumns() {
        #expect(TableOutput.width(environment: [:]) == 100)
        #expect(TableOutput.width(environment: ["COLUMNS": "132"]) == 132)
        #expect(TableOutput.width(environment: ["COLUMNS": "wide"]) == 100)
        #expect(TableOutput.width(environment: ["COLUMNS": "3"]) == TableOutput.minimumWidth)
        TableOutput.$terminalColumns.withValue(90) {
            #expect(TableOutput.width(environment: ["COLUMNS": "132"]) == 90)
        }
    }

    /// `--columns`: names and groups, in the order given, each column once.
    @Test func columnsPickAndOrder() {
        let run = Invocation(["waits", "--runs", "1000", "--columns", "p99_total_wait_s,jitter,@waits,jitter"])
        #expect(run.status == 0, "\(run.stderr)")
        let header = run.rows[0]
        #expect(Array(header.prefix(2)) == ["p99_total_wait_s", "jitter"])
        #expect(header.dropFirst(2).allSatisfy { $0.contains("wait") })
        #expect(Set(header).count == header.count && header.filter { $0 == "jitter" }.count == 1)
        #expect(run.rows.dropFirst().allSatisfy { $0.count == header.count })
        let load = Invocation(["simulate", "--clients", "100", "--server", "outage:2s", "--columns", "@load"])
        #expect(
            load.rows[0] == [
                "peak_load", "peak_load_time_s", "peak_retry_load", "peak_retry_time_s", "bucket_s", "peak_queue",
                "formula_peak_load", "formula_peak_load_time_s", "formula_peak_retry_load",
                "formula_peak_retry_time_s",
            ])
        let parameters = Invocation(["waits", "--runs", "1000", "--columns", "@parameters"])
        #expect(parameters.rows[0].contains("jitter") && !parameters.rows[0].contains("mean_total_wait_s"))
    }

    /// A bad list is a usage error naming the value, before anything runs, and no file is written.
    @Test(arguments: [
        ("mean_total_wat", "the table has no column 'mean_total_wat' (did you mean 'mean_total_wait_s'?)"),
        ("jitter,,seed", "a column name is empty"),
        ("", "a column name is empty"),
        ("@loads", "no column group '@loads': did you mean '@load'?"),
        ("@fluid", "no column of the table is in '@fluid'"),
    ])
    func badColumnListsAreUsageErrors(list: String, detail: String) {
        let directory = TemporaryDirectory()
        let output = directory.file("out.csv")
        let run = Invocation(["waits", "--runs", "1000", "--columns", list, "--output", output])
        #expect(run.status == 64)
        #expect(
            run.stderr.contains("for '--columns <list>': \(detail); expected a comma-separated list"), "\(run.stderr)")
        #expect(run.stdout.isEmpty && directory.contents.isEmpty)
        let format = Invocation(["waits", "--format", "yaml"])
        #expect(format.status == 64 && format.stderr.contains("expected csv, json, table or markdown"))
    }

    /// `--provenance` adds the build's version and commit and GSL's version; a baseline check says
    /// what made each side, and the columns are neither matched nor compared.
    @Test func provenanceIsRecordedAndReported() throws {
        let run = Invocation(["waits", "--runs", "1000", "--provenance"])
        #expect(run.rows[0].suffix(2) == ["backoff_version", "gsl_version"])
        #expect(run.field("backoff_version") == "\(BuildInfo.version)+\(BuildInfo.commit)")
        #expect(run.field("gsl_version") == GSLLibrary.version && GSLLibrary.version.hasPrefix("2."))
        let picked = Invocation(["waits", "--runs", "1000", "--provenance", "--columns", "gsl_version,jitter"])
        #expect(picked.rows[0] == ["gsl_version", "jitter"] && picked.rows.dropFirst().allSatisfy { $0.count == 2 })
        let directory = TemporaryDirectory()
        let new = try directory.write(run.stdout, to: "new.csv")
        let old = try directory.write(
            run.stdout.replacingOccurrences(of: "\(BuildInfo.version)+", with: "0.0.9+"), to: "old.csv")
        let check = Invocation(["check", new, "--baseline", old])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(
            check.stdout.hasPrefix(
                "provenance: table backoff \(BuildInfo.version)+\(BuildInfo.commit), GSL \(GSLLibrary.version); "
                    + "baseline backoff 0.0.9+\(BuildInfo.commit), GSL \(GSLLibrary.version)\n"))
        let version = Invocation(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("backoff \(BuildInfo.version)\ncommit "))
        #expect(Invocation(["version"]).stdout == version.stdout)
        #expect(Invocation(["version", "--short"]).status == 64)
    }

    /// A sweep prints any format and columns when its table is whole; a resume, which completes a
    /// CSV file, refuses them.
    @Test func sweepsTakeFormatsButResumeOnlyCSV() {
        let run = Invocation([
            "sweep", "waits", "--runs", "500", "--max-attempts", "3,4", "--format", "json",
            "--columns", "sweep_max_attempts,jitter,mean_total_wait_s",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 8 && lines.allSatisfy { $0.hasPrefix("{\"sweep_max_attempts\":") })
        let directory = TemporaryDirectory()
        let resume = Invocation([
            "sweep", "waits", "--max-attempts", "3,4", "--resume", directory.file("t.csv"),
            "--format", "markdown",
        ])
        #expect(resume.status == 64 && resume.stderr.contains("resume without them"), "\(resume.stderr)")
        let unknown = Invocation(["sweep", "waits", "--max-attempts", "3,4", "--columns", "nope"])
        #expect(unknown.status == 64 && unknown.stderr.contains("the table has no column 'nope'"))
    }
}
