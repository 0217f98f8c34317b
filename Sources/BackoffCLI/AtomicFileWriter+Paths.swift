#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which paths name one file: a side file against the table, two spellings of one destination, a
/// device or pipe written directly.
extension AtomicFileWriter {
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
        if let table, sameFile(path, table) {
            throw .usage("'--\(side.option)' and '--output' name the same file '\(path)'", command: command)
        }
    }

    /// Whether two destinations would replace one file: the same spelling, the same regular file
    /// when both exist (a link, `./x.csv` and `x.csv`), or the same name in the same directory when
    /// they do not yet. A device or pipe is written directly, so two writers may share it (`/dev/null`).
    static func sameFile(_ first: String, _ second: String) -> Bool {
        if first == standardOutputPath || second == standardOutputPath { return first == second }
        var a = stat()
        var b = stat()
        if stat(first, &a) == 0 && stat(second, &b) == 0 {
            return (a.st_mode & S_IFMT) == S_IFREG && a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
        if first == second { return true }
        guard let one = canonicalPath(first), let other = canonicalPath(second) else { return false }
        return one == other
    }

    /// `path` with its directory resolved (links, `.`, `..`), or `nil` when the directory does not exist.
    private static func canonicalPath(_ path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let resolved = realpath(directory, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + name
    }

    /// Whether `path` exists and is not a regular file (a device, a pipe): written directly.
    static func isSpecialFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
    }
}

extension Optional where Wrapped == AtomicFileWriter {
    /// Writes a command's whole output: into the file, committed (renamed into place), or without
    /// one to `standardOutput`.
    func deliver(_ text: String, orTo standardOutput: inout some TextOutputStream) throws(CommandLineError) {
        if let file = self {
            file.write(text)
            try file.commit()
        } else {
            standardOutput.write(text)
        }
    }
}
