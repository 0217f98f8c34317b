import RetrySimulation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One mode's rows of `simulate --requests FILE`, written as its requests end (the run holds none
/// of them, so memory stays bounded however many requests run) to an anonymous temporary file,
/// which the system removes however the process ends.
///
/// Modes run at the same time (`--jobs`), each into its own rows; ``append(_:to:)`` then joins them
/// in mode order under FILE, so the bytes do not depend on the thread count.
final class RequestRows: RequestLog {
    /// A mode's finished rows: a descriptor of the temporary file, handed from the run's thread to
    /// the one that joins them, and closed with the last reference (read or not: a run that failed).
    final class Finished: Sendable {
        fileprivate let descriptor: Int32

        fileprivate init(descriptor: Int32) { self.descriptor = descriptor }

        deinit { close(descriptor) }
    }

    private let jitter: String
    /// FILE, for messages.
    private let path: String
    private let file: UnsafeMutablePointer<FILE>
    /// The first write's error.
    private var failure: String?

    /// Rows of the mode `jitter`, bound for `path`.
    init(jitter: String, path: String) throws(CommandLineError) {
        guard let file = tmpfile() else {
            throw .failure("Cannot write '\(path)': no temporary file: \(String(cString: strerror(errno)))")
        }
        self.jitter = jitter
        self.path = path
        self.file = file
    }

    deinit { fclose(file) }

    func requestEnded(_ request: RequestRecord) {
        let line = SimulateCommand.requestColumns.row((jitter, request)).joined(separator: ",") + "\n"
        if fputs(line, file) == EOF, failure == nil { failure = String(cString: strerror(errno)) }
    }

    /// The rows, flushed: a descriptor that outlives this object (the stream is closed by `deinit`).
    func finish() throws(CommandLineError) -> Finished {
        if fflush(file) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if let failure { throw .failure("Cannot write '\(path)': its temporary file failed: \(failure)") }
        let descriptor = dup(fileno(file))
        guard descriptor >= 0 else {
            throw .failure("Cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        return Finished(descriptor: descriptor)
    }

    /// Copies the finished rows to `writer` from their start.
    static func append(_ rows: Finished, to writer: AtomicFileWriter) throws(CommandLineError) {
        var offset: off_t = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(rows.descriptor, $0.baseAddress, $0.count, offset) }
            guard count >= 0 else {
                throw .failure(
                    "Cannot write '\(writer.path)': reading its temporary file: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            buffer.withUnsafeBytes { writer.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            offset += off_t(count)
        }
    }
}
