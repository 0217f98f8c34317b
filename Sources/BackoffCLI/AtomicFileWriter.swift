#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a file so that it appears whole or not at all: the data goes to a temporary file beside
/// the destination, which replaces the destination by `rename` (atomic on POSIX file systems) only
/// on ``commit()``. A writer dropped without committing removes its temporary file, so a failed run
/// never leaves a half table under the final name, and an existing file is untouched.
///
/// A destination that exists and is not a regular file (`/dev/null`, `/dev/stdout`, a FIFO) is
/// written directly: renaming over it would replace the device or pipe with a file. `-` is the
/// standard output. A file that exists keeps its permissions; one that nobody may write (no write
/// bit, or not writable by this user) is refused rather than replaced, since the rename needs only
/// the directory's permission. Every write is checked: a full disk or a closed pipe fails the
/// commit with a message naming the destination.
final class AtomicFileWriter {
    /// The path that names the standard output.
    static let standardOutputPath = "-"

    let path: String
    /// The temporary file, or `nil` when writing straight to a special file.
    private let temporaryPath: String?
    private var file: UnsafeMutablePointer<FILE>?
    /// The temporary file's slot in ``InterruptCleanup``.
    private var cleanupSlot: Int?

    /// Opens the temporary file. Throws a failure naming the path when the directory is not writable.
    init(path: String) throws(CommandLineError) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw .usage("Invalid output path '\(path)': expected a file name")
        }
        self.path = path
        if path == Self.standardOutputPath {
            temporaryPath = nil
            guard let file = fdopen(dup(STDOUT_FILENO), "w") else {
                throw .failure("Cannot write to standard output: \(String(cString: strerror(errno)))")
            }
            self.file = file
            return
        }
        var existing = stat()
        let exists = stat(path, &existing) == 0
        if exists && (existing.st_mode & S_IFMT) == S_IFREG
            && ((existing.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || access(path, W_OK) != 0)
        {
            throw .failure(
                "Cannot write '\(path)': the file is read-only; it is left as it is (make it writable, or write elsewhere)"
            )
        }
        if Self.isSpecialFile(path) {
            temporaryPath = nil
        } else {
            let slash = path.lastIndex(of: "/")
            let directory = slash.map { String(path[...$0]) } ?? ""
            let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            temporaryPath = "\(directory).\(name).tmp-\(getpid())"
        }
        guard let file = fopen(temporaryPath ?? path, "w") else {
            throw .failure("Cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        // The replacement keeps the mode of the file it replaces.
        if temporaryPath != nil, exists { fchmod(fileno(file), existing.st_mode & 0o7777) }
        self.file = file
        cleanupSlot = temporaryPath.flatMap(InterruptCleanup.register)
    }

    /// Refuses a side file (`--timeline`, `--samples`) that names the table's file, or that asks for
    /// the standard output (`-`) while the table goes there too.
    static func checkDistinct(table: String?, side: (option: String, path: String?), command: String)
        throws(CommandLineError)
    {
        guard let path = side.path else { return }
        if path == standardOutputPath && (table ?? standardOutputPath) == standardOutputPath {
            throw .usage(
                "'--\(side.option) -' and the table would both go to standard output; give '--output FILE' for the table",
                command: command)
        }
        if path == table {
            throw .usage("'--\(side.option)' and '--output' name the same file '\(path)'", command: command)
        }
    }

    /// Whether `path` exists and is not a regular file (a device, a pipe): written directly.
    static func isSpecialFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
    }

    deinit {
        if let file {
            fclose(file)
            if let temporaryPath { unlink(temporaryPath) }
        }
        if let cleanupSlot { InterruptCleanup.unregister(cleanupSlot) }
    }

    /// Appends text.
    func write(_ text: String) {
        guard let file else { preconditionFailure("write after commit") }
        if fputs(text, file) == EOF, writeFailure == nil { writeFailure = String(cString: strerror(errno)) }
    }

    /// The first write's error, if one failed (the stream's error flag is checked at commit too).
    private var writeFailure: String?

    /// Flushes the data and moves the file to its final name.
    func commit() throws(CommandLineError) {
        guard let file else { return }
        self.file = nil
        defer {
            if let cleanupSlot { InterruptCleanup.unregister(cleanupSlot) }
            cleanupSlot = nil
        }
        var failure = writeFailure
        if fflush(file) != 0 || ferror(file) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if fclose(file) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        let destination = path == Self.standardOutputPath ? "standard output" : "'\(path)'"
        guard let temporaryPath else {
            if let failure { throw .failure("Cannot write \(destination): \(failure)") }
            return
        }
        if failure == nil, rename(temporaryPath, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporaryPath)
            throw .failure("Cannot write \(destination): \(failure)")
        }
    }
}
