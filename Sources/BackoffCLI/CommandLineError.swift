/// The one error type of the command line. Every error ends as help on stdout (exit 0), a usage
/// error on stderr (exit 64, no data written) or a failure on stderr (exit 1).
enum CommandLineError: Error, Equatable {
    /// The user asked for help: print this text to stdout and exit 0.
    case help(String)
    /// Bad input: the message names the value and the accepted form. `command` selects the hint line.
    case usage(String, command: String?)
    /// A runtime failure (I/O, GSL); exit 1.
    case failure(String)

    static func usage(_ message: String) -> CommandLineError { .usage(message, command: nil) }

    var exitCode: Int32 {
        switch self {
        case .help: 0
        case .usage: 64
        case .failure: 1
        }
    }
}

extension String {
    /// The text as a message quotes it: whole up to 80 characters, else its first 60 and its
    /// length, so a megabyte given by mistake is not echoed back in full.
    var quotedInMessage: String {
        count <= 80 ? self : "\(prefix(60))... (\(count) characters)"
    }
}
