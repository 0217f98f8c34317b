import Foundation

/// Renders `backoff help` and `backoff help <command>` from the commands' own declarations.
enum HelpRenderer {
    static func overview() -> String {
        var text = """
            backoff: analyse retry policies (backoff and jitter) with closed forms and simulation.

            USAGE: backoff <command> [options]

            COMMANDS:

            """
        let width = Commands.all.map { $0.name.count }.max() ?? 0
        for command in Commands.all {
            text += "  \(command.name.padding(to: width))  \(command.abstract)\n"
        }
        text += """

            Run 'backoff help <command>' or 'backoff <command> --help' for a command's options and columns,
            and 'backoff help servers' for the server models of 'simulate'.
            Data (CSV) goes to stdout; messages go to stderr. Exit codes: 0 success, 1 failure, 64 usage error.

            """
        return text
    }

    static func help(for name: String) -> String {
        guard let command = Commands.named(name) else { return overview() }
        var text = "\(command.abstract)\n\n\(command.discussion)\n\nUSAGE: backoff \(command.name) [options]\n"
        let width = command.specs.map(\.usage.count).max() ?? 0
        let groups = OptionGroup.allCases.filter { group in command.specs.contains { $0.group == group } }
        if groups.isEmpty { text += "\n\(OptionGroup.command.heading):\n" }
        for group in groups {
            // One heading for a command whose options all sit in one group.
            text += "\n\(groups.count == 1 ? OptionGroup.command.heading : group.heading):\n"
            for spec in command.specs where spec.group == group {
                let defaultText = spec.defaultValue.map { " (default: \($0))" } ?? ""
                text += "  \(spec.usage.padding(to: width))  \(spec.help)\(defaultText)\n"
            }
        }
        text += "  \("--help, -h".padding(to: width))  Show this help.\n\nCSV COLUMNS (in this order):\n"
        let columnWidth = command.columns.map(\.name.count).max() ?? 0
        for column in command.columns {
            text += "  \(column.name.padding(to: columnWidth))  \(column.meaning)\n"
        }
        text += "\nDurations take a unit: ns, us, ms, s, m, h (250ms, 1.5s, 2m). Lists take commas.\n"
        text += "\nEXAMPLE:\n  \(command.example)\n"
        return text
    }
}

extension HelpRenderer {
    /// The data dictionary's table of a command's columns (notebooks-data/README.md), in Markdown: one row per column, in order, from
    /// the same declarations as the header and `help`.
    static func markdownColumns(of command: any DocumentedCommand.Type) -> String {
        "| column | meaning |\n|---|---|\n"
            + command.columns.map { "| `\($0.name)` | \($0.meaning.replacingOccurrences(of: "|", with: "\\|")) |\n" }
            .joined()
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
