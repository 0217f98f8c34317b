import Foundation
import Testing

@testable import BackoffCLI

/// `simulate --hosts-report FILE` end to end: a row per mode and host that adds up to the main
/// table, the same table with or without it, and its file kept apart from every other.
@Suite struct HostsReportTests {
    static let replicaSet = [
        "simulate", "--server", "capacity", "--replicas", "4", "--workers", "1", "--service", "exp:20ms",
        "--queue", "1000", "--arrivals", "poisson:100", "--duration", "10s", "--max-attempts", "3",
        "--jitter", "full,none", "--host-fault", "1:failing:p=0.5",
    ]

    /// One row per mode and host, in order, whose copies add up to the attempts the server saw (one
    /// copy per attempt without a hedge) and whose shares add up to 1; the healthy hosts fail
    /// nothing, and the table is byte for byte the one written without the report.
    @Test func theReportHasARowPerHostThatAddsUp() throws {
        let directory = TemporaryDirectory()
        let report = directory.file("hosts.csv")
        let with = Invocation(Self.replicaSet + ["--hosts-report", report])
        let without = Invocation(Self.replicaSet)
        #expect(with.status == 0 && with.stderr.isEmpty, "\(with.stderr)")
        #expect(with.stdout == without.stdout)
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == HostRow.columns.map(\.name).joined(separator: ","))
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 8)
        let header = HostRow.columns.map(\.name)
        func value(_ row: [String], _ column: String) -> String { row[header.firstIndex(of: column)!] }
        for (mode, jitter) in ["full", "none"].enumerated() {
            let hosts = Array(rows[(4 * mode)..<(4 * mode + 4)])
            #expect(hosts.map { value($0, "jitter") } == Array(repeating: jitter, count: 4))
            #expect(hosts.map { value($0, "host") } == ["0", "1", "2", "3"])
            #expect(hosts.map { value($0, "fault") } == ["failing:p=0.5", "none", "none", "none"])
            let copies = hosts.map { Int(value($0, "copies"))! }.reduce(0, +)
            #expect(String(copies) == with.field("attempts_total", row: mode))
            let shares = hosts.map { Double(value($0, "share"))! }.reduce(0, +)
            #expect(abs(shares - 1) < 1e-12)
            #expect(hosts.allSatisfy { value($0, "formula_share") == "0.25" && !value($0, "se_share").isEmpty })
            #expect(hosts.dropFirst().allSatisfy { value($0, "failures") == "0" })
            #expect(Int(value(hosts[0], "failures"))! > 0)
        }
    }

    /// Without a replica set there is no host to report: a warning, and the header alone.
    @Test func aRunWithoutAReplicaSetWarnsAndWritesTheHeader() throws {
        let directory = TemporaryDirectory()
        let report = directory.file("hosts.csv")
        let result = Invocation(["simulate", "--clients", "10", "--hosts-report", report])
        #expect(result.status == 0)
        #expect(result.stderr.contains("'--hosts-report' has no rows: no mode runs through a replica set"))
        #expect(
            try String(contentsOfFile: report, encoding: .utf8)
                == HostRow.columns.map(\.name).joined(separator: ",") + "\n")
    }

    /// The report needs a file of its own: not the table's, another side file's or an input's
    /// (through a symlink too), nor standard output with the table; none of them is touched, and
    /// a sweep or a tune refuses the option.
    @Test func theReportNeedsAFileOfItsOwn() throws {
        let directory = TemporaryDirectory()
        let table = try directory.write("keep me\n", to: "table.csv")
        let trace = try directory.write("time_s,capacity_factor\n0,1\n", to: "capacity.csv")
        let link = directory.file("link.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: table)
        let base = ["simulate", "--clients", "10", "--server", "capacity", "--replicas", "2"]
        for (extra, message) in [
            (["--output", table, "--hosts-report", table], "name the same file"),
            (["--output", table, "--hosts-report", link], "name the same file"),
            (["--timeline", table, "--hosts-report", table], "name the same file"),
            (["--capacity-trace", trace, "--hosts-report", trace], "it is a file this run reads as an input"),
            (["--hosts-report", "-"], "would both go to standard output"),
        ] {
            let result = Invocation(base + extra)
            #expect(result.status == 64 && result.stdout.isEmpty && result.stderr.contains(message), "\(extra)")
        }
        #expect(try String(contentsOfFile: table, encoding: .utf8) == "keep me\n")
        #expect(try String(contentsOfFile: trace, encoding: .utf8) == "time_s,capacity_factor\n0,1\n")
        #expect(directory.contents.sorted() == ["capacity.csv", "link.csv", "table.csv"])
        let sweep = Invocation(["sweep"] + base + ["--hosts-report", directory.file("x.csv")])
        #expect(sweep.status == 64 && sweep.stderr.contains("'--hosts-report' is not available in a sweep"))
        let tune = Invocation([
            "tune", "--clients", "10", "--server", "capacity", "--replicas", "2", "--objective", "attempts_total",
            "--search", "max-attempts=1..3", "--hosts-report", directory.file("x.csv"),
        ])
        #expect(tune.status == 64 && tune.stderr.contains("Unknown option '--hosts-report'"))
    }

    /// `check` reads a hosts report as it reads the main table: each host's share against its
    /// formula through its standard error (8 comparisons: 4 hosts in 2 modes), the formula taken
    /// as written, since the report has no column to recompute 1/K from. An edited formula fails.
    @Test func checkComparesEachHostsShareWithItsFormula() throws {
        let directory = TemporaryDirectory()
        let report = directory.file("hosts.csv")
        #expect(Invocation(Self.replicaSet + ["--hosts-report", report]).status == 0)
        let checked = Invocation(["check", report])
        #expect(checked.status == 0, "\(checked.stdout)")
        #expect(checked.stdout.contains("8 rows, 8 comparisons, 0 failed"), "\(checked.stdout)")
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let edited = directory.file("edited.csv")
        try text.replacingOccurrences(of: ",0.25,", with: ",0.5,").write(
            toFile: edited, atomically: true, encoding: .utf8)
        let failed = Invocation(["check", edited])
        #expect(failed.status == 1 && failed.stdout.contains("8 failed"), "\(failed.stdout)")
        #expect(failed.stdout.contains("FAIL row 1 (jitter=full): share"), "\(failed.stdout)")
    }
}
