import Foundation
import Testing

@testable import BackoffCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading a directory entry's name must stay within the entry: the last record of readdir's buffer
/// is only as long as its name, and the page after it may not be mapped.
@Suite struct DirectoryEntryTests {
    /// An entry whose name ends right before an inaccessible page: the name is read up to its NUL,
    /// and nothing past it (copying the 256-byte `d_name`, as the code once did, faults here).
    @Test func aNameAtTheEndOfAPageIsReadInPlace() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let memory = try #require(
            mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0).flatMap {
                $0 == MAP_FAILED ? nil : $0
            })
        defer { munmap(memory, 2 * page) }
        #expect(mprotect(memory + page, page, PROT_NONE) == 0)
        let name = ".table.csv.tmp-42-0"
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let start = page - offset - name.utf8.count - 1
        let entry = memory + start
        name.withCString { text in
            (entry + offset).copyMemory(from: text, byteCount: name.utf8.count + 1)
        }
        #expect(AtomicFileWriter.name(of: entry.assumingMemoryBound(to: dirent.self)) == name)
    }
}
