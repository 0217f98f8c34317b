import Foundation
import Testing

@testable import BackoffCLI

/// `simulate --requests FILE` end to end: one row per request, worked by hand where the run is
/// exact, the same bytes whatever the jobs, and bad input that writes nothing.
@Suite struct RequestsOptionTests {
    static let header = "jitter,client,request,start_s,completion_s,attempts,copies,outcome,total_wait_s"

    static func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Always-fail, no jitter, waits 100 ms then 200 ms: each of 3 clients gives up at 0.3 s after 3
    /// attempts, having waited 0.3 s; the modes' rows come in the table's order.
    @Test func eachRequestIsARow() throws {
        let directory = TemporaryDirectory()
        let requests = directory.file("requests.csv")
        let result = Invocation([
            "simulate", "--clients", "3", "--server", "always-fail", "--jitter", "none,full", "--max-attempts", "3",
            "--base", "100ms", "--requests", requests, "--seed", "7",
        ])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let rows = try Self.lines(requests)
        #expect(rows.first == Self.header)
        #expect(rows.count == 7)
        #expect(
            Array(rows.dropFirst().prefix(3)) == (0..<3).map { "none,\($0),0,0,0.3,3,3,gave_up,0.3" },
            "\(rows)")
        // Full jitter: each wait is below its exponential's, and the request ends when it gives up.
        for row in rows.dropFirst(4) {
            let fields = row.split(separator: ",").map(String.init)
            #expect(fields[0] == "full" && fields[5] == "3" && fields[7] == "gave_up", "\(row)")
            let completion = Double(fields[4]) ?? .nan
            #expect(completion > 0 && completion < 0.3 && fields[4] == fields[8], "\(row)")
        }
    }

    /// A hedge's copies are counted per request: copy 2 at 30 ms, the answer at 100 ms, in every
    /// jitter mode's rows (one attempt each: the policy never waits).
    @Test func aHedgedRequestCountsItsCopies() throws {
        let directory = TemporaryDirectory()
        let requests = directory.file("requests.csv")
        let result = Invocation(HedgeOptionTests.hedged + " --requests " + requests)
        #expect(result.status == 0, "\(result.stderr)")
        let modes = ["none", "full", "equal", "decorrelated"]
        #expect(try Self.lines(requests) == [Self.header] + modes.map { "\($0),0,0,0,0.1,1,2,succeeded,0" })
    }

    /// Through the event queue with Poisson arrivals and a capacity server, the file is the same
    /// bytes with one job and with two, and its rows add up to the table's.
    @Test func theFileIsTheSameWhateverTheJobs() throws {
        let directory = TemporaryDirectory()
        var files: [String] = []
        var tables: [String] = []
        for jobs in ["1", "2"] {
            let requests = directory.file("requests-\(jobs).csv")
            let result = Invocation([
                "simulate", "--clients", "400", "--server", "capacity", "--workers", "2", "--service", "exp:20ms",
                "--arrivals", "poisson:200", "--jitter", "full,equal,decorrelated", "--seed", "11", "--jobs", jobs,
                "--requests", requests,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            files.append(try String(contentsOfFile: requests, encoding: .utf8))
            tables.append(result.stdout)
            let rows = try Self.lines(requests).dropFirst().map { $0.split(separator: ",").map(String.init) }
            for (index, jitter) in ["full", "equal", "decorrelated"].enumerated() {
                let mine = rows.filter { $0[0] == jitter }
                #expect(mine.count == Int(result.field("unique_requests", row: index) ?? ""), "\(jitter)")
                let successes = mine.count { $0[7] == "succeeded" }
                #expect(successes == Int(result.field("successes", row: index) ?? ""), "\(jitter)")
                let attempts = mine.reduce(0) { $0 + (Int($1[5]) ?? 0) }
                #expect(attempts == Int(result.field("attempts_total", row: index) ?? ""), "\(jitter)")
            }
        }
        #expect(files[0] == files[1] && tables[0] == tables[1])
    }

    /// The file must be its own: not the table's, not another side file's (however it is spelt),
    /// and not the standard output while the table goes there. Nothing is written.
    @Test func theFileNeedsANameOfItsOwn() throws {
        let directory = TemporaryDirectory()
        let table = try directory.write("keep me\n", to: "table.csv")
        for clash in [
            ["--output", table, "--requests", directory.file("./table.csv")],
            ["--timeline", directory.file("t.csv"), "--requests", directory.path + "/./t.csv"],
            ["--requests", "-"],
        ] {
            let result = Invocation(["simulate", "--clients", "10"] + clash)
            #expect(result.status == 64 && result.stdout.isEmpty, "\(clash): \(result.stderr)")
            #expect(
                result.stderr.contains("name the same file") || result.stderr.contains("both go to standard output"),
                "\(clash): \(result.stderr)")
        }
        #expect(try String(contentsOfFile: table, encoding: .utf8) == "keep me\n")
        #expect(directory.contents == ["table.csv"])
        let sweep = Invocation(["sweep", "simulate", "--clients", "3,4", "--requests", directory.file("r.csv")])
        #expect(sweep.status == 64 && sweep.stderr.contains("'--requests' is not available in a sweep"))
    }

    /// A bad value elsewhere leaves an existing file as it was, and no temporary file; a full disk
    /// is a failure naming the file.
    @Test func aFailedRunKeepsTheUsersFile() throws {
        let directory = TemporaryDirectory()
        let requests = try directory.write("keep me\n", to: "requests.csv")
        let bad = Invocation(["simulate", "--clients", "10", "--base", "fast", "--requests", requests])
        #expect(bad.status == 64 && bad.stderr.contains("'fast'"), "\(bad.stderr)")
        #expect(try String(contentsOfFile: requests, encoding: .utf8) == "keep me\n")
        #expect(directory.contents == ["requests.csv"])
        let full = Invocation(["simulate", "--clients", "10", "--requests", "/dev/full", "--output", "/dev/null"])
        #expect(full.status == 1 && full.stderr.contains("Cannot write '/dev/full'"), "\(full.stderr)")
    }
}
