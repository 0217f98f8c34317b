/// `backoff completion bash|zsh|fish` (and `backoff --generate-completion-script SHELL`, as
/// swift-argument-parser spells it): a shell completion script, from the commands' declarations.
struct CompletionCommand: RunnableCommand {
    static let name = "completion"
    static let abstract = "Print a completion script for bash, zsh or fish."
    static let discussion = """
        The script completes the commands, each command's options (a sweep's own and its swept command's), \
        and the values an option takes from a list (jitter modes, presets, server models, formats, cap modes, \
        generators...), or a file. 'scripts/install' puts it where each shell finds it; or, for this shell \
        only: source <(backoff completion bash).
        """
    static let specs: [OptionSpec] = []
    static let columns: [ColumnDocumentation] = []
    static let example = "backoff completion bash > ~/.local/share/bash-completion/completions/backoff"

    static func main<Output: TextOutputStream, Errors: TextOutputStream>(
        _ tokens: ArraySlice<ArgumentToken>, standardOutput: inout Output, standardError: inout Errors, terminal: Bool
    ) throws(CommandLineError) -> Int32 {
        let shells = CompletionShell.allCases.map(\.rawValue).joined(separator: ", ")
        guard let first = tokens.first, case .word(let word) = first.kind else {
            if tokens.contains(where: { $0.kind == .option(name: "help", attachedValue: nil) }) {
                throw .help(HelpRenderer.help(for: name))
            }
            throw .usage("Missing the shell: expected one of \(shells)", command: name)
        }
        guard let shell = CompletionShell(rawValue: word) else {
            throw .usage("Unknown shell '\(word.quotedInMessage)': expected one of \(shells)", command: name)
        }
        _ = try ParsedOptions(command: name, specs: specs, tokens: tokens.dropFirst())
        standardOutput.write(shell.script)
        return 0
    }
}
