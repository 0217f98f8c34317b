import Testing

@testable import BackoffCLI

/// `backoff help <command>` lists each option once, under the heading of its group, with the groups
/// in ``OptionGroup``'s order and the options of a group in the command's order.
@Suite struct HelpGroupTests {
    /// The options' lines of a command's help, each with the heading it sits under.
    static func listedOptions(of command: any DocumentedCommand.Type) -> [(heading: String, usage: String)] {
        let help = HelpRenderer.help(for: command.name)
        let options = help.components(separatedBy: "\nCSV COLUMNS")[0].split(separator: "\n").dropFirst(3)
        var heading = ""
        var listed: [(String, String)] = []
        for line in options {
            if line.hasSuffix("OPTIONS:") {
                heading = String(line.dropLast())
            } else if line.hasPrefix("  --"), !line.hasPrefix("  --help") {
                let usage = line.dropFirst(2).components(separatedBy: "  ")[0]
                listed.append((heading, usage))
            }
        }
        return listed
    }

    @Test(arguments: Commands.all.map { $0.name })
    func everyOptionIsListedOnceUnderItsGroupsHeading(name: String) throws {
        let command = try #require(Commands.named(name))
        let listed = Self.listedOptions(of: command)
        let groups = OptionGroup.allCases.filter { group in command.specs.contains { $0.group == group } }
        // Group by group, each in the command's own order.
        let expected = groups.flatMap { group in
            command.specs.filter { $0.group == group }.map {
                (groups.count == 1 ? OptionGroup.command.heading : group.heading, $0.usage)
            }
        }
        #expect(listed.map(\.heading) == expected.map(\.0), "\(name): headings")
        #expect(listed.map(\.usage) == expected.map(\.1), "\(name): options")
        #expect(Set(listed.map(\.usage)).count == command.specs.count, "\(name): an option listed twice")
    }

    /// simulate's options span every group but the command's own, in the order argument-parser's
    /// users expect to scan them: the policy first, the output last.
    @Test func simulateGroupsItsOptionsFromPolicyToOutput() throws {
        let headings = Self.listedOptions(of: SimulateCommand.self).map(\.heading)
        let distinct = headings.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(
            distinct == [
                "POLICY OPTIONS", "SERVER OPTIONS", "CLIENT AND ARRIVAL OPTIONS", "SHARED LIMIT OPTIONS",
                "LAYER AND HEDGE OPTIONS", "OUTPUT AND RUN OPTIONS",
            ])
        // tune adds its own options (the search) under a plain heading, before simulate's groups.
        let tune = Self.listedOptions(of: TuneCommand.self)
        #expect(tune.first?.heading == "OPTIONS")
        #expect(tune.contains { $0.usage.hasPrefix("--search") && $0.heading == "OPTIONS" })
    }
}
