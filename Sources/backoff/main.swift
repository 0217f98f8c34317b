import BackoffCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to a file descriptor through a buffered C stream of its own.
final class StandardStream: TextOutputStream {
    private let file: UnsafeMutablePointer<FILE>

    /// A stream on `descriptor`, fully buffered or unbuffered; `nil` when the descriptor is not open.
    init?(descriptor: Int32, buffered: Bool) {
        guard let file = fdopen(descriptor, "w") else { return nil }
        if !buffered { setvbuf(file, nil, _IONBF, 0) }
        self.file = file
    }

    func write(_ string: String) { fputs(string, file) }

    func flush() { fflush(file) }
}

guard var standardOutput = StandardStream(descriptor: STDOUT_FILENO, buffered: true),
    var standardError = StandardStream(descriptor: STDERR_FILENO, buffered: false)
else { exit(1) }
let status = BackoffCommandLine.run(
    Array(CommandLine.arguments.dropFirst()), standardOutput: &standardOutput, standardError: &standardError,
    standardErrorIsTerminal: isatty(STDERR_FILENO) == 1)
standardOutput.flush()
standardError.flush()
exit(status)
