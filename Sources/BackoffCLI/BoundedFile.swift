import Foundation

/// Reads a whole input file, but never more than a limit: a device that never ends (`/dev/zero`),
/// or a file larger than the run could hold, is refused instead of read until memory runs out.
enum BoundedFile {
    enum Failure: Error {
        case unreadable
        case tooLarge(limit: Int)
    }

    /// The file's bytes, read in chunks up to `limit`. The file is recorded as an input of the run
    /// (``InputFiles``), so that no output replaces it.
    static func read(_ path: String, limit: Int) throws(Failure) -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable }
        defer { try? handle.close() }
        InputFiles.record(descriptor: handle.fileDescriptor)
        var data = Data()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: min(1 << 20, limit + 1 - data.count))
            } catch {
                throw .unreadable
            }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
            if data.count > limit { throw .tooLarge(limit: limit) }
        }
    }
}
