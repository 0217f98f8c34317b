import BuildInfo
import Stochastics

/// `backoff version` (and `backoff --version`): what this build is, for a bug report or a table's
/// provenance.
struct VersionCommand: RunnableCommand {
    static let name = "version"
    static let abstract = "Print backoff's version, the commit it was built from and the GSL it runs on."
    static let discussion = """
        Three lines: 'backoff VERSION', 'commit HASH' (+dirty when the build's tracked files differed from \
        it; unknown outside a git checkout) and 'gsl VERSION' (the library linked at run time). A table's \
        --provenance columns record the same.
        """
    static let specs: [OptionSpec] = []
    static let columns: [ColumnDocumentation] = []
    static let example = "backoff --version"

    /// The three lines.
    static var text: String {
        "backoff \(BuildInfo.version)\ncommit \(BuildInfo.commit)\ngsl \(GSLLibrary.version)\n"
    }

    static func main<Output: TextOutputStream, Errors: TextOutputStream>(
        _ tokens: ArraySlice<ArgumentToken>, standardOutput: inout Output, standardError: inout Errors, terminal: Bool
    ) throws(CommandLineError) -> Int32 {
        _ = try ParsedOptions(command: name, specs: specs, tokens: tokens)
        standardOutput.write(text)
        return 0
    }
}
