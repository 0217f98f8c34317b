import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files one run of `backoff` has read as inputs, by device and inode (so a link, `./x` and `x`
/// are one file), so that no output replaces one: `--output g.json` beside `--grpc-service-config
/// g.json` is refused before anything is written, instead of overwriting the config.
///
/// Every input file is read through ``BoundedFile``, which records it in the run's set
/// (``current``, bound by ``BackoffCommandLine/run(_:standardOutput:standardError:standardErrorIsTerminal:)``
/// for the run, so runs in one process, as the tests make, never see each other's inputs).
/// ``AtomicFileWriter`` asks before it opens its temporary file and again before it renames it
/// over the destination (an input read during the run).
final class InputFiles: Sendable {
    /// A file's identity.
    private struct Identity: Hashable {
        let device: UInt64
        let inode: UInt64

        init?(_ status: stat) {
            guard (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// The inputs of the run in progress; `nil` outside one.
    @TaskLocal static var current: InputFiles?

    private let read = Mutex<Set<Identity>>([])

    /// Records the regular file open on `descriptor` as an input of the run in progress.
    static func record(descriptor: Int32) {
        var status = stat()
        guard let current, fstat(descriptor, &status) == 0, let identity = Identity(status) else { return }
        _ = current.read.withLock { $0.insert(identity) }
    }

    /// Whether `path` (links followed) is a regular file the run in progress read as an input.
    static func contains(_ path: String) -> Bool {
        var status = stat()
        guard let current, stat(path, &status) == 0, let identity = Identity(status) else { return false }
        return current.read.withLock { $0.contains(identity) }
    }
}
