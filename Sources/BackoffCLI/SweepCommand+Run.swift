import Foundation
import Parallelism

extension SweepCommand {
    /// Runs the points of this shard that no earlier run finished, writing rows in grid order.
    /// - Returns: the exit code (0).
    func run(
        standardOutput: inout some TextOutputStream, standardError: inout some TextOutputStream
    ) throws(CommandLineError) -> Int32 {
        if dryRun { return try listPoints(standardOutput: &standardOutput) }
        let headerLine = CSVFormat.record(header)
        let existing = resume ? try existingRows() : [:]
        let pending = points.filter { existing[$0] == nil }
        var progress =
            progress
            ? ProgressLine(label: "sweep", unit: "points", total: pending.count, rewritesLine: rewriteProgressLine)
            : nil
        guard tableOutput.isPlainCSV else {
            // Another format, some columns or provenance: the table is printed when it is whole.
            let output = try outputPath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
            var table = CSVTable(header: header)
            try runPoints(pending, progress: &progress, standardError: &standardError) { _, row in table.append(row) }
            let text = try tableOutput.text(of: table, columns: documentation)
            try output.deliver(text, orTo: &standardOutput)
            return 0
        }

        // A regular output file keeps its finished rows in a journal until the table is whole; a
        // device or a pipe (/dev/null, /dev/stdout) cannot be resumed, so its rows stream to it as
        // standard output's do, and two sweeps may write to /dev/null at once.
        var (device, journal): (AtomicFileWriter?, JournalFile?) = (nil, nil)
        if let outputPath, AtomicFileWriter.isSpecialFile(outputPath) {
            device = try AtomicFileWriter(path: outputPath)
        } else if let outputPath {
            journal = try JournalFile(
                path: Self.journalPath(outputPath), header: headerLine, lines: points.compactMap { existing[$0] })
        }
        func stream(_ line: String) {
            if let device { device.write(line) } else { standardOutput.write(line) }
        }
        if journal == nil { stream(headerLine + "\n") }
        var fresh: [Int: String] = [:]
        try runPoints(pending, progress: &progress, standardError: &standardError) { index, row in
            let line = CSVFormat.record(row)
            if let journal {
                journal.append(line)
                fresh[index] = line
            } else {
                stream(line + "\n")
            }
        } batchEnded: { () throws(CommandLineError) in
            try journal?.flush()
        }

        if let outputPath, let journal {
            // A resume read this very table and carries its rows into the new one.
            let table = try AtomicFileWriter(path: outputPath, replacesInput: resume)
            table.write(headerLine + "\n")
            for index in points {
                table.write((existing[index] ?? fresh[index]!) + "\n")
            }
            try table.commit()
            journal.remove()
        }
        try device?.commit()
        return 0
    }

    /// Runs `points`, `jobs` at a time in batches of 4 `jobs`, handing each row to `row` in order
    /// and reporting progress after each batch.
    private func runPoints(
        _ points: [Int], progress: inout ProgressLine?, standardError: inout some TextOutputStream,
        row: (Int, [String]) -> Void, batchEnded: () throws(CommandLineError) -> Void = {}
    ) throws(CommandLineError) {
        let batch = max(1, jobs * 4)
        var start = 0
        while start < points.count {
            let indices = Array(points[start..<min(start + batch, points.count)])
            let work = runPoint
            let rows: [[String]]
            do {
                rows = try ParallelWork.map(indices.count, jobs: jobs) { try work(indices[$0]) }
            } catch let error as CommandLineError {
                throw error
            } catch {
                throw .failure("\(error)")
            }
            for (index, fields) in zip(indices, rows) { row(index, fields) }
            try batchEnded()
            start += batch
            progress?.update(done: min(start, points.count), to: &standardError)
        }
    }

    /// The rows of the resume file and its journal, by point index. Both must have this sweep's
    /// header, and every row must be a point of this shard.
    private func existingRows() throws(CommandLineError) -> [Int: String] {
        guard let resumePath = outputPath else { return [:] }
        var byIdentity: [String: Int] = [:]
        for index in points { byIdentity[grid.identity(at: index)] = index }
        var rows: [Int: String] = [:]
        for path in [resumePath, Self.journalPath(resumePath)] where FileManager.default.fileExists(atPath: path) {
            let file = try CSVReader(
                file: path, command: Self.name, expected: "a table written by this same sweep command",
                journal: path == Self.journalPath(resumePath))
            guard !file.header.joined().isEmpty else {
                throw .usage(
                    "'\(path)' is empty; expected a table written by this same sweep command (its header and the "
                        + "rows done so far): remove the file, or leave out --resume, to start afresh",
                    command: Self.name)
            }
            guard file.header == header else {
                throw .usage(
                    "'\(path)' has another header than this sweep (another command, or other varied options); "
                        + "expected a table written by this same sweep command", command: Self.name)
            }
            let idColumn = file.column("point_id")!
            var strangers = 0
            for (record, line) in zip(file.records, file.lines) {
                guard let index = byIdentity[record[idColumn]] else {
                    strangers += 1
                    continue
                }
                rows[index] = line
            }
            guard strangers == 0 else {
                throw .usage(
                    "\(strangers) rows of '\(path)' are not points of this sweep (other values, seed or shard); "
                        + "expected a table written by this same sweep command", command: Self.name)
            }
        }
        return rows
    }

    /// `--dry-run`: the points and their seeds.
    private func listPoints(standardOutput: inout some TextOutputStream) throws(CommandLineError) -> Int32 {
        let hasSeed = grid.specs.contains { $0.name == SweepGrid.seed }
        var table = CSVTable(
            header: ["point"] + grid.variedAxes.map(\.columnName) + (hasSeed ? ["seed"] : []) + ["point_id"])
        for index in points {
            table.append(
                [String(index + 1)] + grid.variedColumns(at: index) + (grid.seed(at: index).map { [String($0)] } ?? [])
                    + [grid.identity(at: index)])
        }
        let text = try tableOutput.text(of: table, columns: [])
        let file = try outputPath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        try file.deliver(text, orTo: &standardOutput)
        return 0
    }
}
