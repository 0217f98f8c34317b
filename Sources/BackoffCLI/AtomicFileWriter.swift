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
/// written directly: renaming over it would replace the device or pipe with a file.
final class AtomicFileWriter {
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
        self.file = file
        cleanupSlot = temporaryPath.flatMap(InterruptCleanup.register)
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
        fputs(text, file)
    }

    /// Flushes the data and moves the file to its final name.
    func commit() throws(CommandLineError) {
        guard let file else { return }
        self.file = nil
        defer {
            if let cleanupSlot { InterruptCleanup.unregister(cleanupSlot) }
            cleanupSlot = nil
        }
        let flushed = fflush(file) == 0
        let closed = fclose(file) == 0
        guard let temporaryPath else {
            guard flushed, closed else { throw .failure("Cannot write '\(path)': \(String(cString: strerror(errno)))") }
            return
        }
        guard flushed, closed, rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw .failure("Cannot write '\(path)': \(reason)")
        }
    }
}
