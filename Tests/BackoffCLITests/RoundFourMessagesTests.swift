import Foundation
import Testing

@testable import BackoffCLI

/// Round four's misleading messages (issue 43, section 5), each by its cause: a row error names
/// its row and column, a value read from a file is echoed cut as command-line values are, and an
/// empty file is called empty. Each is a usage error (exit 64) that writes no data.
@Suite struct RoundFourMessagesTests {
    /// A table with a row of another width was read without it: `check` said "0 rows ... nothing
    /// to check", or PASS over the rows that were left. It is refused, naming the row.
    @Test func checkRefusesARowOfAnotherWidthNamingIt() throws {
        let directory = TemporaryDirectory()
        let table = Invocation("waits --runs 200 --seed 3")
        try #require(table.status == 0)
        var lines = table.stdout.split(separator: "\n").map(String.init)
        lines[3] += ",extra"
        lines[4] = String(lines[4].split(separator: ",").first!)
        let path = try directory.write(lines.joined(separator: "\n") + "\n", to: "bad.csv")
        let result = Invocation(["check", path])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result.stdout)")
        let columns = lines[0].split(separator: ",").count
        #expect(
            result.stderr.contains(
                "'\(path)' row 4 has \(columns + 1) fields where the header has \(columns) (and 1 more row of another width)"
            ), "\(result.stderr)")
        // The same file as a baseline is refused the same way.
        let good = try directory.write(table.stdout, to: "good.csv")
        let baseline = Invocation(["check", good, "--baseline", path])
        #expect(baseline.status == 64 && baseline.stderr.contains("row 4 has"), "\(baseline.stderr)")
    }

    /// A trace's or an events file's value is echoed as a command-line value is: whole up to 80
    /// characters, else its first 60 and its length (a 3 MB number was written back in full; 5,000 characters here keep the debug build quick).
    @Test func aFilesLongValueIsEchoedCut() throws {
        let directory = TemporaryDirectory()
        let long = String(repeating: "9", count: 5_000)
        let trace = try directory.write("time_s,failure_probability\n0,\(long)\n", to: "trace.csv")
        let run = Invocation(["simulate", "--server", "trace:\(trace)"])
        #expect(run.status == 64 && run.stdout.isEmpty)
        #expect(run.stderr.count < 1_000, "\(run.stderr.count) characters on stderr")
        #expect(
            run.stderr.contains(
                "row 2, column failure_probability: '" + String(repeating: "9", count: 60) + "... (5000 characters)'"),
            "\(run.stderr.prefix(400))")
        let events = try directory.write("time_s,event\n0,\(String(repeating: "x", count: 5_000))\n", to: "events.csv")
        let limiter = Invocation(["limiter", "--events", events])
        #expect(limiter.status == 64 && limiter.stderr.count < 1_000, "\(limiter.stderr.prefix(400))")
        #expect(limiter.stderr.contains("(5000 characters)"), "\(limiter.stderr.prefix(400))")
        // A row of another width in a trace names the row.
        let ragged = try directory.write("time_s,failure_probability\n0,0.5\n1,0.5,7\n", to: "ragged.csv")
        let raggedRun = Invocation(["simulate", "--server", "trace:\(ragged)"])
        #expect(
            raggedRun.status == 64 && raggedRun.stderr.contains("row 3 has 3 fields where the header has 2"),
            "\(raggedRun.stderr)")
    }

    /// An empty `--resume` file was read as "another header than this sweep": it is called empty,
    /// and kept as it was.
    @Test func anEmptyResumeFileIsCalledEmpty() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write("", to: "sweep.csv")
        let result = Invocation(["sweep", "waits", "--max-attempts", "3,4", "--runs", "100", "--resume", path])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(
            result.stderr.contains("'\(path)' is empty; expected a table written by this same sweep command"),
            "\(result.stderr)")
        #expect(try String(contentsOfFile: path, encoding: .utf8).isEmpty, "the file is untouched")
    }
}
