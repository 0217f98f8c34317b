#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rows a sweep has finished, kept in `FILE.partial` so that an interrupted sweep loses nothing:
/// a CSV file (header first) to which each row is appended whole, flushed after every batch.
/// It is deliberately left behind when the process is interrupted; ``remove()`` deletes it once the
/// complete table is in place.
final class JournalFile {
    let path: String
    private var file: UnsafeMutablePointer<FILE>?

    /// Starts the journal afresh with `header` and the `lines` already known (written atomically,
    /// which also drops a row torn by a hard kill), then opens it for appending.
    init(path: String, header: String, lines: [String]) throws(CommandLineError) {
        self.path = path
        // A resume read this journal: it starts again from what was read.
        let start = try AtomicFileWriter(path: path, replacesInput: true)
        start.write(header + "\n")
        for line in lines { start.write(line + "\n") }
        try start.commit()
        guard let file = fopen(path, "a") else {
            throw .failure("Cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        self.file = file
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Appends one row (its text without the line end).
    func append(_ line: String) {
        fputs(line + "\n", file)
    }

    /// Makes the rows appended so far durable against an interruption of this process.
    func flush() throws(CommandLineError) {
        guard fflush(file) == 0 else { throw .failure("Cannot write '\(path)': \(String(cString: strerror(errno)))") }
    }

    /// Closes and deletes the journal.
    func remove() {
        if let file { fclose(file) }
        file = nil
        unlink(path)
    }
}
