import Synchronization

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
///
/// - A destination that is a symbolic link writes the file it points to (atomically, beside that
///   file), and the link stays a link.
/// - A destination that this run read as an input (``InputFiles``: the same file by device and
///   inode) is refused before anything is written, and again before the rename.
/// - A temporary file of this destination left by a process that no longer runs (one killed with
///   SIGKILL, which no handler sees) is removed when the next writer opens, which says so on stderr.
final class AtomicFileWriter {
    /// The path that names the standard output.
    static let standardOutputPath = "-"
    /// Numbers this process's temporary files, so two writers never share one, even when their
    /// destinations are one file spelt two ways (`x.csv`, `./x.csv`).
    private static let temporaryFiles = Atomic<Int>(0)

    let path: String
    /// The file that is replaced: `path`, or the file it links to.
    private let destination: String
    /// The temporary file, or `nil` when writing straight to a special file.
    private let temporaryPath: String?
    private var file: UnsafeMutablePointer<FILE>?
    /// The temporary file's slot in ``InterruptCleanup``.
    private var cleanupSlot: Int?

    /// Opens the temporary file. Throws a failure naming the path when the directory is not
    /// writable, and a usage error when the destination is an input of this run, unless
    /// `replacesInput` (a sweep's journal, which its resume reads and then starts afresh).
    init(path: String, replacesInput: Bool = false) throws(CommandLineError) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw .usage("Invalid output path '\(path)': expected a file name")
        }
        self.path = path
        self.replacesInput = replacesInput
        if path == Self.standardOutputPath {
            destination = path
            temporaryPath = nil
            guard let file = fdopen(dup(STDOUT_FILENO), "w") else {
                throw .failure("Cannot write to standard output: \(String(cString: strerror(errno)))")
            }
            self.file = file
            return
        }
        destination = Self.resolvingLinks(path)
        if !replacesInput { try Self.checkNotAnInput(path) }
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
            let (directory, name) = Self.split(destination)
            Self.removeStaleTemporaries(directory: directory, name: name)
            let number = Self.temporaryFiles.wrappingAdd(1, ordering: .relaxed).oldValue
            temporaryPath = "\(directory).\(name).tmp-\(getpid())-\(number)"
        }
        guard let file = fopen(temporaryPath ?? path, "w") else {
            throw .failure("Cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        // The replacement keeps the mode of the file it replaces.
        if temporaryPath != nil, exists { fchmod(fileno(file), existing.st_mode & 0o7777) }
        self.file = file
        cleanupSlot = temporaryPath.flatMap(InterruptCleanup.register)
    }

    /// Whether the destination may be an input of this run (see ``init(path:replacesInput:)``).
    private let replacesInput: Bool

    /// Refuses a destination that this run read as an input: writing it would lose the input.
    private static func checkNotAnInput(_ path: String) throws(CommandLineError) {
        guard InputFiles.contains(path) else { return }
        throw .usage(
            "Refusing to write '\(path)': it is a file this run reads as an input, and writing would replace it; "
                + "write the output to another file")
    }

    /// `path` split after its last slash: the directory with its slash (or empty), and the name.
    private static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// `path` with its symbolic links followed to the file they name (which may not exist yet), so
    /// that the file is replaced and the link kept; `path` itself when it is not a link (or a loop
    /// of links, which the open then reports).
    static func resolvingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let length = buffer.withUnsafeMutableBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { readlink(current, $0.baseAddress!, $0.count) }
            }
            guard length > 0, length < buffer.count else { return path }
            let target = String(decoding: buffer[..<length], as: UTF8.self)
            current = target.hasPrefix("/") ? target : split(current).directory + target
        }
        return path
    }

    /// The name of a directory entry, read in place up to its NUL. A record is only as long as its
    /// name (`d_reclen`), so copying the struct's whole 256-byte `d_name` can read past the end of
    /// the directory buffer and fault, as it did for a sweep's output in a /tmp of 1,700 entries.
    static func name(of entry: UnsafePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }

    /// Removes the temporary files of `name` in `directory` that a process no longer running left
    /// (`.name.tmp-PID-N`, PID gone), saying so on stderr.
    private static func removeStaleTemporaries(directory: String, name: String) {
        guard let folder = opendir(directory.isEmpty ? "." : directory) else { return }
        defer { closedir(folder) }
        let prefix = ".\(name).tmp-"
        while let entry = readdir(folder) {
            let entryName = Self.name(of: entry)
            guard entryName.hasPrefix(prefix) else { continue }
            let parts = entryName.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, UInt64(parts[1]) != nil, pid != getpid(),
                kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            let stale = directory + entryName
            if unlink(stale) == 0 {
                writeToStandardError(
                    "backoff: removed '\(stale)', the temporary file of a run (process \(pid)) that was killed before it finished\n"
                )
            }
        }
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

    /// Appends bytes as they are.
    func write(_ bytes: UnsafeRawBufferPointer) {
        guard let file else { preconditionFailure("write after commit") }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        if fwrite(base, 1, bytes.count, file) != bytes.count, writeFailure == nil {
            writeFailure = String(cString: strerror(errno))
        }
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
        let named = path == Self.standardOutputPath ? "standard output" : "'\(path)'"
        guard let temporaryPath else {
            if let failure { throw .failure("Cannot write \(named): \(failure)") }
            return
        }
        if failure == nil, !replacesInput, InputFiles.contains(destination) {
            unlink(temporaryPath)
            try Self.checkNotAnInput(path)
        }
        if failure == nil, rename(temporaryPath, destination) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporaryPath)
            throw .failure("Cannot write \(named): \(failure)")
        }
    }
}

/// Writes `message` to stderr directly (a writer has no stream of the command's).
private func writeToStandardError(_ message: String) {
    _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
