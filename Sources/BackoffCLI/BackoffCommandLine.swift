/// The `backoff` command line: lexes the arguments, picks the command, parses its options, runs it
/// and writes its table. Streams are parameters, so tests run it in process.
public enum BackoffCommandLine {
    /// Runs `backoff` with `arguments` (without the program name) and returns the exit code:
    /// 0 success (and help), 1 runtime failure, 64 usage error. On any error nothing is written to
    /// stdout or to an output file.
    /// - Parameters:
    ///   - arguments: the command and its options, as a shell passes them.
    ///   - standardOutput: where the table goes (or help).
    ///   - standardError: where messages, warnings and progress go.
    ///   - standardErrorIsTerminal: whether stderr is a terminal (sweeps then report progress on one
    ///     rewritten line without being asked).
    ///   - standardOutputColumns: the width of stdout when it is a terminal (`--format table` and
    ///     `explain` fit their lines to it); `nil` otherwise.
    public static func run(
        _ arguments: [String], standardOutput: inout some TextOutputStream, standardError: inout some TextOutputStream,
        standardErrorIsTerminal: Bool = false, standardOutputColumns: Int? = nil
    ) -> Int32 {
        // The run's own set of input files, which no output may replace, and its terminal's width.
        let outcome: Result<Int32, CommandLineError> = TableOutput.$terminalColumns.withValue(
            standardOutputColumns
        ) {
            InputFiles.$current.withValue(InputFiles()) {
                do throws(CommandLineError) {
                    return .success(
                        try dispatch(
                            arguments, standardOutput: &standardOutput, standardError: &standardError,
                            terminal: standardErrorIsTerminal))
                } catch {
                    return .failure(error)
                }
            }
        }
        switch outcome {
        case .success(let status):
            return status
        case .failure(let error):
            switch error {
            case .help(let text):
                standardOutput.write(text)
            case .usage(let message, let command):
                standardError.write("backoff: \(message)\n")
                let hint = command.map { "backoff help \($0)" } ?? "backoff help"
                standardError.write("Run '\(hint)' for usage.\n")
            case .failure(let message):
                standardError.write("backoff: \(message)\n")
            }
            return error.exitCode
        }
    }

    private static func dispatch(
        _ arguments: [String], standardOutput: inout some TextOutputStream, standardError: inout some TextOutputStream,
        terminal: Bool
    ) throws(CommandLineError) -> Int32 {
        let tokens = ArgumentLexer.tokens(arguments)
        let names = Commands.all.map { $0.name }.joined(separator: ", ")
        guard let first = tokens.first else {
            throw .usage("Missing command: expected one of \(names), or help")
        }
        let name: String
        switch first.kind {
        case .option(name: "help", attachedValue: nil):
            throw .help(HelpRenderer.overview())
        case .option(name: "version", attachedValue: nil):
            throw .help(VersionCommand.text)
        case .option(name: "generate-completion-script", let attached):
            // swift-argument-parser's spelling of `backoff completion SHELL`.
            let shell = attached.map { [ArgumentToken(kind: .word($0), index: 0)] } ?? []
            return try CompletionCommand.main(
                ArraySlice(shell + tokens.dropFirst()), standardOutput: &standardOutput, standardError: &standardError,
                terminal: terminal)
        case .option(let option, _):
            throw .usage("Expected a command before '--\(option)': one of \(names), or help")
        case .word("help"):
            guard tokens.count > 1, case .word(let topic) = tokens[1].kind else { throw .help(HelpRenderer.overview()) }
            if topic == "servers" { throw .help(HelpRenderer.servers()) }
            if topic == "help" { throw .help(HelpRenderer.overview()) }
            guard Commands.named(topic) != nil else { throw unknownCommand(topic) }
            throw .help(HelpRenderer.help(for: topic))
        case .word(let word):
            name = word
        }
        guard let command = Commands.named(name) else { throw unknownCommand(name) }
        return try command.main(
            tokens.dropFirst(), standardOutput: &standardOutput, standardError: &standardError, terminal: terminal)
    }

    private static func unknownCommand(_ name: String) -> CommandLineError {
        let names = Commands.all.map { $0.name }
        let hint = Suggestion.closest(to: name, among: names + ["help"]).map { " Did you mean '\($0)'?" } ?? ""
        return .usage(
            "Unknown command '\(name.quotedInMessage)'.\(hint) Commands: \(names.joined(separator: ", ")), help")
    }
}
