import BackoffCLI
import CTerminal

#if canImport(Glibc)
    import CMalloc
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to a file descriptor through a buffered C stream of its own, and remembers whether any
/// write failed (a full disk, a closed pipe), so that the run can report it instead of exiting 0.
final class StandardStream: TextOutputStream {
    private let file: UnsafeMutablePointer<FILE>
    /// The first write error's description, if any.
    private(set) var failure: String?

    /// A stream on `descriptor`, fully buffered or unbuffered; `nil` when the descriptor is not open.
    init?(descriptor: Int32, buffered: Bool) {
        guard fcntl(descriptor, F_GETFD) != -1, let file = fdopen(descriptor, "w") else { return nil }
        if !buffered { setvbuf(file, nil, _IONBF, 0) }
        self.file = file
    }

    func write(_ string: String) {
        if fputs(string, file) == EOF { noteFailure() }
    }

    /// Writes what is buffered; `false` when this or any earlier write failed.
    @discardableResult
    func flush() -> Bool {
        if fflush(file) != 0 || ferror(file) != 0 { noteFailure() }
        return failure == nil
    }

    private func noteFailure() {
        if failure == nil { failure = String(cString: strerror(errno)) }
    }
}

/// Says `message` on stderr even when no stream could be made for it.
func complain(_ message: String) {
    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}

#if canImport(Glibc)
    // Freed memory stays with the process for the next run instead of going back to the system at
    // once (glibc trims the heap's top past 128 KiB by default): a sweep builds and frees a run's
    // memory per point, and returning it cost a brk or madvise call and fresh page faults each time
    // (the 2015 study's exponential sweep: 1,182 brk and 650 madvise calls, 0.11 s of system time).
    _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
#endif

/// The width of the terminal stdout writes to, or `nil` when it is not a terminal.
func outputColumns() -> Int? {
    let columns = Int(cterminal_columns(STDOUT_FILENO))
    return isatty(STDOUT_FILENO) == 1 && columns > 0 ? columns : nil
}

guard let standardError = StandardStream(descriptor: STDERR_FILENO, buffered: false) else { exit(1) }
guard let standardOutput = StandardStream(descriptor: STDOUT_FILENO, buffered: true) else {
    complain("backoff: standard output is closed; nothing can be written (redirect it, e.g. > table.csv)\n")
    exit(1)
}
var output = standardOutput
var errors = standardError
var status = BackoffCommandLine.run(
    Array(CommandLine.arguments.dropFirst()), standardOutput: &output, standardError: &errors,
    standardErrorIsTerminal: isatty(STDERR_FILENO) == 1, standardOutputColumns: outputColumns())
if !standardOutput.flush() {
    errors.write("backoff: cannot write to standard output: \(standardOutput.failure ?? "write error")\n")
    status = 1
}
standardError.flush()
exit(status)
