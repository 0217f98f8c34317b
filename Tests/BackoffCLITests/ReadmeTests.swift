import BackoffPolicies
import Foundation
import Testing

@testable import BackoffCLI

/// The user documents (README, the DocC articles, the data dictionary) say what the code does: their
/// examples run, their tables come from the declarations, and they point nowhere outside the project.
@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func read(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    static let readme = read("README.md")
    static let dictionary = read("notebooks-data/README.md")

    /// The articles of every DocC catalog, by path.
    static let articles: [(path: String, text: String)] = {
        let sources = root.appendingPathComponent("Sources")
        var found: [(String, String)] = []
        for case let path as String in FileManager.default.enumerator(atPath: sources.path)!
        where path.hasSuffix(".md") && path.contains(".docc/") {
            found.append(("Sources/" + path, read("Sources/" + path)))
        }
        return found.sorted { $0.0 < $1.0 }
    }()

    /// README and the articles: every document a user reads.
    static var documents: [(path: String, text: String)] { [("README.md", readme)] + articles }

    /// `backoff help <command>` is the reference: it names every option and every column.
    @Test func helpDocumentsEveryOptionAndColumn() {
        for command in Commands.all {
            let help = HelpRenderer.help(for: command.name)
            for spec in command.specs {
                #expect(help.contains("--\(spec.name)"), "\(command.name): option --\(spec.name)")
            }
            for column in command.columns where Commands.table(named: command.name) != nil {
                #expect(help.contains(column.name), "\(command.name): column \(column.name)")
            }
            #expect(Self.readme.contains("`backoff \(command.name)") || Self.readme.contains("backoff \(command.name)"))
        }
    }

    /// The data dictionary's column tables are the ones the column declarations render: every
    /// column, in order, with the meaning `help` shows.
    @Test func theDataDictionarysColumnTablesComeFromTheDeclarations() throws {
        var expected = ""
        for command in Commands.tables {
            expected += "### `backoff \(command.name)`\n\n" + HelpRenderer.markdownColumns(of: command) + "\n"
        }
        if ProcessInfo.processInfo.environment["BACKOFF_RECORD_DICTIONARY"] != nil {
            let marker = "## Columns of each command\n\n"
            let kept = Self.dictionary.components(separatedBy: marker)[0]
            try (kept + marker + expected).write(
                to: Self.root.appendingPathComponent("notebooks-data/README.md"), atomically: true, encoding: .utf8)
            return
        }
        #expect(Self.dictionary.contains(expected), "notebooks-data/README.md's column tables should be:\n\(expected)")
    }

    /// The presets table (in the article "Which jitter, which cap rule") is what `backoff presets`
    /// prints, row for row.
    @Test func thePresetsTableIsThePresetsCommands() throws {
        let article = try #require(Self.articles.first { $0.path.hasSuffix("WhichJitterWhichCapRule.md") }).text
        let table = try PresetsCommand(ParsedOptions(command: "presets", specs: PresetsCommand.specs, tokens: [])).run()
        let reader = CSVReader(text: table.text)
        func field(_ record: [String], _ name: String) -> String { record[reader.header.firstIndex(of: name)!] }
        #expect(reader.records.count == Preset.all.map(\.failureKinds.count).reduce(0, +))
        for record in reader.records {
            let mean = field(record, "mean_total_wait_s")
            let row =
                "| `\(field(record, "preset"))` | \(field(record, "library")) | \(field(record, "failure_kind")) | "
                + "`\(field(record, "jitter"))` | \(field(record, "cap_mode")) | \(field(record, "max_attempts")) | "
                + "\(field(record, "budget")) | \(mean.isEmpty ? "none" : mean) | \(field(record, "verified")) |"
            #expect(article.contains(row), "the article's presets table should hold:\n\(row)")
        }
    }

    /// Every Swift example in the documents is compiled and run by a test: each line of a ```swift
    /// block, up to its `// In the app:` marker (the lines after it use the app's own objects),
    /// appears in a test source.
    @Test func everySwiftExampleIsCompiledByATest() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var sources = ""
        for case let path as String in FileManager.default.enumerator(atPath: tests.path)!
        where path.hasSuffix(".swift") {
            sources += try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
        }
        var blocks = 0
        for (path, text) in Self.documents {
            for block in text.components(separatedBy: "```swift\n").dropFirst().map({
                $0.components(separatedBy: "```")[0]
            }) {
                blocks += 1
                let example = block.components(separatedBy: "// In the app:")[0]
                let missing = example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty && !sources.contains($0) }
                #expect(missing.isEmpty, "\(path): Swift lines not in any test: \(missing)")
            }
        }
        #expect(blocks >= 6)
    }

    @Test func theSetUpCommandsAreAtTheTop() {
        let top = Self.readme.prefix(2_000)
        #expect(top.contains("scripts/backoff waits") && top.contains("scripts/test"))
    }

    /// A user document cites no commit and links nowhere outside the repository; history belongs
    /// in commit messages.
    @Test func theDocumentsCiteNoCommitAndNoPathOutside() throws {
        let commit = try Regex("commit [0-9a-f]{7}")
        for (path, text) in Self.documents + [("notebooks-data/README.md", Self.dictionary)] {
            #expect(text.firstMatch(of: commit) == nil, "\(path) cites a commit")
            #expect(!text.contains("](../") && !text.contains("../shared"), "\(path) points outside the repository")
        }
    }

    /// Every `$ scripts/backoff ... | cut -d, -f...` example in the documents shows the output the
    /// CLI really prints today.
    @Test func workedExamplesShowTheRealOutput() throws {
        var checked = 0
        for (path, text) in Self.documents {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, line) in lines.enumerated() where line.hasPrefix("$ scripts/backoff ") {
                let pipeline = line.dropFirst("$ scripts/backoff ".count).components(separatedBy: " | cut -d, -f")
                let arguments = pipeline[0].split(separator: " ").map(String.init)
                let fields = pipeline.count > 1 ? pipeline[1].split(separator: ",").compactMap { Int($0) } : nil
                let expected = lines[(index + 1)...].prefix { $0 != "```" }
                // Blank lines kept (explain's text has them); the last line end is the output's own.
                let printed = Invocation(arguments).stdout
                let actual = printed.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
                    row -> String in
                    guard let fields else { return String(row) }
                    let columns = row.split(separator: ",", omittingEmptySubsequences: false)
                    return fields.map { String(columns[$0 - 1]) }.joined(separator: ",")
                }
                #expect(Array(expected) == actual, "\(path) example: \(line)")
                checked += 1
            }
        }
        #expect(checked >= 5)
    }
}
