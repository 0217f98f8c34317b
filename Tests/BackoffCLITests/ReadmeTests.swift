import Foundation
import Testing

@testable import BackoffCLI

/// The README documents every command, option and column the CLI has.
@Suite struct ReadmeTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    @Test func everyOptionAndColumnIsDocumented() {
        #expect(!Self.readme.isEmpty, "README.md not found")
        for command in Commands.all {
            let commandDocumented = Self.readme.contains("`backoff \(command.name)")
            #expect(commandDocumented, "command \(command.name)")
            for spec in command.specs {
                let documented = Self.readme.contains("`--\(spec.name)")
                #expect(documented, "\(command.name): option --\(spec.name)")
            }
            for column in command.columns where Commands.table(named: command.name) != nil {
                let documented = Self.readme.contains("`\(column.name)`")
                #expect(documented, "\(command.name): column \(column.name)")
            }
        }
    }

    /// Each table command's column table in the README is the one its column declarations render:
    /// every column, in order, with the meaning `help` shows.
    @Test func theColumnTablesComeFromTheDeclarations() {
        for command in Commands.tables {
            let table = HelpRenderer.markdownColumns(of: command)
            #expect(Self.readme.contains(table), "README's table for \(command.name) should be:\n\(table)")
        }
    }

    /// Every Swift example in the README is compiled and run by a test: each line of a ```swift block,
    /// up to its `// In the app:` marker (the lines after it use the app's own objects), appears in a
    /// test source.
    @Test func everySwiftExampleIsCompiledByATest() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var sources = ""
        for case let path as String in FileManager.default.enumerator(atPath: tests.path)!
        where path.hasSuffix(".swift") {
            sources += try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
        }
        let blocks = Self.readme.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```")[0]
        }
        #expect(blocks.count >= 2)
        for block in blocks {
            let example = block.components(separatedBy: "// In the app:")[0]
            let missing = example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !sources.contains($0) }
            #expect(missing.isEmpty, "README Swift lines not in any test: \(missing)")
        }
    }

    @Test func theSetUpCommandsAreAtTheTop() {
        let top = Self.readme.prefix(2_000)
        #expect(top.contains("scripts/backoff waits") && top.contains("scripts/test"))
    }

    /// Every `$ scripts/backoff ... | cut -d, -f...` example in the README shows the output the CLI
    /// really prints today.
    @Test func workedExamplesShowTheRealOutput() throws {
        let lines = Self.readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var checked = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("$ scripts/backoff ") {
            let pipeline = line.dropFirst("$ scripts/backoff ".count).components(separatedBy: " | cut -d, -f")
            let arguments = pipeline[0].split(separator: " ").map(String.init)
            let fields = pipeline.count > 1 ? pipeline[1].split(separator: ",").compactMap { Int($0) } : nil
            let expected = lines[(index + 1)...].prefix { $0 != "```" }
            let actual = Invocation(arguments).stdout.split(separator: "\n").map { row -> String in
                guard let fields else { return String(row) }
                let columns = row.split(separator: ",", omittingEmptySubsequences: false)
                return fields.map { String(columns[$0 - 1]) }.joined(separator: ",")
            }
            #expect(Array(expected) == actual, "README example: \(line)")
            checked += 1
        }
        #expect(checked >= 2)
    }
}
