@testable import BackoffCLI
import Foundation
import Testing

/// The README documents every command, option and column the CLI has.
@Suite struct ReadmeTests {
    static let readme: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""
    }()

    @Test func everyOptionAndColumnIsDocumented() {
        #expect(!Self.readme.isEmpty, "README.md not found")
        for command in Commands.all {
            #expect(Self.readme.contains("`backoff \(command.name)`"), "command \(command.name)")
            for spec in command.specs {
                #expect(Self.readme.contains("`--\(spec.name)"), "\(command.name): option --\(spec.name)")
            }
            for column in command.columns {
                #expect(Self.readme.contains("`\(column.name)`"), "\(command.name): column \(column.name)")
            }
        }
    }

    @Test func theSetUpCommandsAreAtTheTop() {
        let top = Self.readme.prefix(2_000)
        #expect(top.contains("scripts/backoff waits") && top.contains("scripts/test"))
    }
}
