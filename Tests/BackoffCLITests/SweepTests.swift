import Foundation
import Synchronization
import Testing

@testable import BackoffCLI

@Suite struct SweepAxisTests {
    func values(_ option: String, _ text: String, command: any BackoffCommand.Type = SimulateCommand.self) throws
        -> [String]
    {
        let spec = try #require(command.specs.first { $0.name == option })
        return try SweepAxis(spec: spec, text: text, command: "sweep").values
    }

    @Test func listsAndRangesExpand() throws {
        #expect(try values("clients", "10..190:10") == (1...19).map { String($0 * 10) })
        #expect(try values("base", "10ms..1s*10") == ["10ms", "100ms", "1s"])
        #expect(try values("base", "100ms..300ms:50ms") == ["100ms", "150ms", "200ms", "250ms", "300ms"])
        #expect(try values("multiplier", "1.5,2,3") == ["1.5", "2", "3"])
        #expect(try values("multiplier", "0.1..0.3:0.1") == ["0.1", "0.2", "0.3"], "no 0.30000000000000004")
        #expect(try values("multiplier", "1..2*1.5") == ["1", "1.5"])
        #expect(try values("max-attempts", "3,5..9:2") == ["3", "5", "7", "9"])
        #expect(try values("jitter", "all") == ["none", "full", "equal", "decorrelated"])
        #expect(try values("server", "outage:1s,bernoulli:0.5") == ["outage:1s", "bernoulli:0.5"])
    }

    @Test(arguments: ["1..", "..5", "10..1:5", "1..100:0", "1..100", "1..20000000:1", "1..10*1", "a..b:1", "1,,2"])
    func malformedRangesAreUsageErrors(text: String) throws {
        #expect(throws: CommandLineError.self) { try values("clients", text) }
    }

    /// A point's seed and identity are those of notebooks-data/sweep-multiplier-attempts.csv, and
    /// how the table is printed (--format, --columns, --provenance) moves neither: --format's
    /// default once entered the seed, and every dataset's rows changed.
    @Test func printingOptionsMoveNoSeed() {
        let grid = ["sweep", "waits", "--multiplier", "1.5,2,2.5,3", "--max-attempts", "3..8:1", "--runs", "10000"]
        let plain = Invocation(grid + ["--seed", "2015", "--dry-run"])
        #expect(plain.rows[1] == ["1", "1.5", "3", "none", "7723794578382075092", "7494f5e2524232be"])
        let printed = Invocation(grid + ["--seed", "2015", "--dry-run", "--format", "csv", "--provenance"])
        #expect(printed.rows.map { Array($0.prefix(6)) } == plain.rows)
    }

    @Test func aValueListedTwiceIsAUsageError() {
        #expect(throws: CommandLineError.self) { try values("multiplier", "2,1.5..3:0.5") }
        #expect(throws: CommandLineError.self) { try values("base", "100ms,0.1s") }
    }

    @Test func namedOptionsTakeListsOnly() {
        #expect(throws: CommandLineError.self) { try values("server", "outage:1s..outage:3s:1s") }
    }
}

@Suite struct SweepTests {
    static let sweep = ["sweep", "waits", "--multiplier", "1.5,2", "--max-attempts", "3..5:2", "--runs", "500"]

    @Test func rowsComeInGridOrderWithTheVariedColumnsFirst() {
        let result = Invocation(Self.sweep)
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.rows[0].prefix(4) == ["sweep_multiplier", "sweep_max_attempts", "sweep_jitter", "jitter"])
        #expect(result.rows[0].last == "point_id")
        let points = result.rows.dropFirst().map { Array($0.prefix(3)) }
        #expect(points.count == 16)
        #expect(
            points[0] == ["1.5", "3", "none"] && points[1] == ["1.5", "3", "full"] && points[4] == ["1.5", "5", "none"])
        #expect(points[15] == ["2", "5", "decorrelated"])
    }

    @Test func outputIsByteIdenticalForEveryJobCount() {
        let one = Invocation(Self.sweep + ["--jobs", "1"])
        #expect(one.stdout == Invocation(Self.sweep + ["--jobs", "2"]).stdout)
        #expect(one.stdout == Invocation(Self.sweep + ["--jobs", "5"]).stdout)
    }

    /// A point's seed comes from its parameters, so it gives the same numbers in another grid, and
    /// the single command with the row's seed reproduces the row.
    @Test func aPointGivesTheSameNumbersInAnyGridAndAlone() throws {
        let small = Invocation(["sweep", "waits", "--multiplier", "1.5,2", "--jitter", "full,equal", "--runs", "500"])
        let large = Invocation([
            "sweep", "waits", "--multiplier", "2,3", "--max-attempts", "5", "--jitter", "equal,full", "--runs", "500",
        ])
        func row(_ invocation: Invocation, multiplier: String, jitter: String) -> [String]? {
            let header = invocation.rows[0]
            let (m, j) = (header.firstIndex(of: "multiplier")!, header.firstIndex(of: "jitter")!)
            let first = header.firstIndex(of: "jitter")!
            return invocation.rows.first { $0[m] == multiplier && $0[j] == jitter }.map { Array($0[first...]) }
        }
        let inSmall = try #require(row(small, multiplier: "2", jitter: "full"))
        #expect(inSmall == row(large, multiplier: "2", jitter: "full"))
        let seed = inSmall[
            small.rows[0][small.rows[0].firstIndex(of: "jitter")!...].firstIndex(of: "seed")! - small.rows[0]
                .firstIndex(of: "jitter")!]
        let alone = Invocation(["waits", "--multiplier", "2", "--jitter", "full", "--runs", "500", "--seed", seed])
        #expect(alone.rows[1] == Array(inSmall.dropLast()), "the single command with seed \(seed)")
    }

    /// A point that differs from an earlier one in its root seed alone runs that point's validated
    /// command, reseeded: every row still equals its command run alone with the seed it reports,
    /// with the seed axis outermost or innermost, for simulate and waits.
    @Test(arguments: [
        ["simulate", "--seed", "3..5:1", "--clients", "40,60", "--server", "outage:1s", "--max-attempts", "4"],
        ["simulate", "--clients", "40,60", "--seed", "3..5:1", "--server", "outage:1s", "--max-attempts", "4"],
        ["waits", "--multiplier", "2,3", "--seed", "7,8", "--runs", "300", "--jitter", "full"],
    ])
    func pointsSharingAllButTheSeedEachRunWithTheirOwnSeed(arguments: [String]) throws {
        let sweep = Invocation(["sweep"] + arguments)
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let header = sweep.rows[0]
        let first = try #require(header.firstIndex(of: "jitter"))
        // The jitter modes of a point share its root seed (each draws its own stream from it).
        let seeds = Set(sweep.rows.dropFirst().map { $0[first] + " " + $0[header.firstIndex(of: "seed")!] })
        #expect(seeds.count == sweep.rows.count - 1, "every point has a seed of its own")
        for row in sweep.rows.dropFirst() {
            var alone = [arguments[0]]
            for (index, argument) in arguments.enumerated().dropFirst() where index % 2 == 1 {
                let name = String(argument.dropFirst(2))
                guard name != "seed" else { continue }
                let swept = header.firstIndex(of: "sweep_" + name.replacingOccurrences(of: "-", with: "_"))
                alone += [argument, swept.map { row[$0] } ?? arguments[index + 1]]
            }
            if !arguments.contains("--jitter") { alone += ["--jitter", row[first]] }
            alone += ["--seed", row[header.firstIndex(of: "seed")!]]
            #expect(Invocation(alone).rows[1] == Array(row[first..<(row.count - 1)]), "\(alone)")
        }
    }

    @Test(arguments: [1, 2, 3, 7, 16, 20])
    func shardsReassembleIntoTheWholeTable(count: Int) {
        let whole = Invocation(Self.sweep).stdout
        var joined = ""
        for k in 1...count {
            let shard = Invocation(Self.sweep + ["--shard", "\(k)/\(count)"])
            #expect(shard.status == 0)
            let lines = shard.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            joined += (k == 1 ? shard.stdout : lines.dropFirst().joined(separator: "\n"))
        }
        #expect(joined == whole, "\(count) shards")
    }

    @Test func dryRunListsThePointsAndTheSeedsTheyRunWith() {
        let dry = Invocation(Self.sweep + ["--dry-run"])
        #expect(dry.rows[0] == ["point", "sweep_multiplier", "sweep_max_attempts", "sweep_jitter", "seed", "point_id"])
        let run = Invocation(Self.sweep)
        for row in 1...16 {
            #expect(dry.field("seed", row: row - 1) == run.field("seed", row: row - 1))
            #expect(dry.field("point_id", row: row - 1) == run.field("point_id", row: row - 1))
        }
    }

    /// An interrupted sweep keeps its finished rows in FILE.partial (one torn at the end by a hard
    /// kill, here); the same command with --resume runs only the rest and writes the whole table.
    @Test func resumeCompletesAnInterruptedSweepWithNoPointLostOrDuplicated() throws {
        let directory = TemporaryDirectory()
        let reference = directory.file("reference.csv")
        #expect(Invocation(Self.sweep + ["--output", reference]).status == 0)
        let whole = try String(contentsOfFile: reference, encoding: .utf8)
        let lines = whole.split(separator: "\n").map(String.init)

        let table = directory.file("table.csv")
        let torn = lines[7].prefix(20)
        try (lines[0...6].joined(separator: "\n") + "\n" + torn).write(
            toFile: table + ".partial", atomically: true, encoding: .utf8)
        let refused = Invocation(Self.sweep + ["--output", table])
        #expect(refused.status == 64 && refused.stderr.contains("--resume"), "a journal is never overwritten silently")

        let resumed = Invocation(Self.sweep + ["--resume", table])
        #expect(resumed.status == 0 && resumed.stdout.isEmpty)
        #expect(try String(contentsOfFile: table, encoding: .utf8) == whole)
        #expect(directory.contents == ["reference.csv", "table.csv"], "the journal is removed once the table is whole")

        // Resuming a complete table runs nothing and changes nothing.
        #expect(Invocation(Self.sweep + ["--resume", table]).status == 0)
        #expect(try String(contentsOfFile: table, encoding: .utf8) == whole)
    }

    /// A device or a pipe as --output cannot be resumed: its rows stream straight to it, with no
    /// journal beside it (two sweeps to /dev/null at once used to collide on /dev/null.partial),
    /// and --resume refuses it.
    @Test func aPipeAsOutputGetsTheRowsWithoutAJournal() throws {
        let directory = TemporaryDirectory()
        let pipe = directory.file("pipe")
        try #require(mkfifo(pipe, 0o600) == 0)
        try "a journal of another run".write(toFile: pipe + ".partial", atomically: true, encoding: .utf8)
        let received = Mutex(Data())
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = FileHandle(forReadingAtPath: pipe)?.readDataToEndOfFile() ?? Data()
            received.withLock { $0 = data }
            done.signal()
        }
        let run = Invocation(Self.sweep + ["--output", pipe])
        // Should the sweep fail before opening the pipe, the reader still waits in open(): a writer
        // that opens and closes it lets the reader see the end (without a reader this open fails).
        let release = open(pipe, O_WRONLY | O_NONBLOCK)
        if release >= 0 { close(release) }
        done.wait()
        #expect(run.status == 0 && run.stdout.isEmpty, "\(run.stderr)")
        #expect(String(decoding: received.withLock { $0 }, as: UTF8.self) == Invocation(Self.sweep).stdout)
        #expect(try String(contentsOfFile: pipe + ".partial", encoding: .utf8) == "a journal of another run")
        let resumed = Invocation(Self.sweep + ["--resume", pipe])
        #expect(resumed.status == 64 && resumed.stderr.contains("not a regular file"))
    }

    @Test func resumeRefusesATableOfAnotherSweep() throws {
        let directory = TemporaryDirectory()
        let table = directory.file("table.csv")
        #expect(
            Invocation(["sweep", "waits", "--multiplier", "1.5,2", "--runs", "100", "--output", table]).status == 0)
        let otherHeader = Invocation(["sweep", "waits", "--base", "10ms,20ms", "--runs", "100", "--resume", table])
        #expect(otherHeader.status == 64 && otherHeader.stderr.contains("another header"))
        let otherCommand = Invocation(["sweep", "formula", "--multiplier", "1.5,2", "--resume", table])
        #expect(otherCommand.status == 64)
        let otherSeed = Invocation([
            "sweep", "waits", "--multiplier", "1.5,2", "--runs", "100", "--seed", "3", "--resume", table,
        ])
        #expect(otherSeed.status == 64 && otherSeed.stderr.contains("not points of this sweep"))
    }

    @Test func progressGoesToStderrOnlyWhenAsked() {
        let quiet = Invocation(Self.sweep)
        #expect(quiet.stderr.isEmpty)
        let loud = Invocation(Self.sweep + ["--progress"])
        #expect(loud.stderr.contains("sweep: 16/16 points"))
        #expect(loud.stdout == quiet.stdout)
    }

    @Test func aBadPointStopsTheSweepBeforeAnyOutput() throws {
        let directory = TemporaryDirectory()
        let table = directory.file("table.csv")
        let result = Invocation(["sweep", "waits", "--base", "100ms,2s", "--cap", "1s", "--output", table])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr.contains("at sweep point base=2s"))
        #expect(directory.contents.isEmpty)
    }
}

@Suite struct CheckTests {
    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The regression check of our own formulas: 4 jitter modes x 3 multipliers x 3 attempt counts,
    /// a binding cap included, each mean checked against its closed form at |z| <= 4 with the seed
    /// fixed. A correct formula fails one check in 16,000; with 36 checks the family fails one run in
    /// about 440 seeds, and this seed is fixed.
    @Test func smallSweepAgreesWithTheFormulas() throws {
        let directory = TemporaryDirectory()
        let table = directory.file("sweep.csv")
        let sweep = Invocation([
            "sweep", "waits", "--multiplier", "1.5,2,3", "--max-attempts", "3,5,8", "--cap", "1s", "--runs", "20000",
            "--seed", "2015", "--output", table,
        ])
        #expect(sweep.status == 0)
        let check = Invocation(["check", table])
        #expect(check.status == 0, "seed 2015: \(check.stdout)")
        #expect(check.stdout.hasPrefix("check: 36 rows, 36 comparisons, 0 failed"))
    }

    @Test func aMovedMeanFailsWithItsNumbers() throws {
        let directory = TemporaryDirectory()
        let table = directory.file("waits.csv")
        #expect(Invocation(["waits", "--runs", "5000", "--output", table]).status == 0)
        var text = try String(contentsOfFile: table, encoding: .utf8)
        let full = try #require(text.split(separator: "\n").first { $0.hasPrefix("full,") })
        let fields = full.split(separator: ",", omittingEmptySubsequences: false)
        var moved = fields.map(String.init)
        moved[7] = String(Double(fields[7])! + 0.1)  // mean_total_wait_s, ~26 standard errors off
        text = text.replacingOccurrences(of: String(full), with: moved.joined(separator: ","))
        try write(text, to: table)
        let check = Invocation(["check", table])
        #expect(check.status == 1)
        #expect(check.stdout.contains("FAIL row 2 (jitter=full"))
        #expect(check.stdout.contains("mean_total_wait_s"))
        #expect(check.stdout.hasSuffix(": FAIL\n"))
    }

    @Test func baselineMatchesRowsByParametersWhateverTheColumnOrder() throws {
        let directory = TemporaryDirectory()
        let (old, new) = (directory.file("old.csv"), directory.file("new.csv"))
        #expect(Invocation(["waits", "--runs", "4000", "--seed", "1", "--output", old]).status == 0)
        #expect(Invocation(["waits", "--runs", "4000", "--seed", "2", "--output", new]).status == 0)
        // Reverse the baseline's columns and add one: matching is by name.
        let reader = try CSVReader(file: old, command: "test", expected: "a table")
        let reversed =
            ([["extra"] + reader.header.reversed()] + reader.records.map { ["x"] + $0.reversed() })
            .map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
        try write(reversed, to: old)
        let check = Invocation(["check", new, "--baseline", old])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.contains("4 rows, 4 comparisons, 0 failed"))

        // A row missing from either side is reported, and fails the check.
        let fewer =
            try String(contentsOfFile: new, encoding: .utf8).split(separator: "\n").dropLast().joined(separator: "\n")
            + "\n"
        try write(fewer, to: new)
        let unmatched = Invocation(["check", new, "--baseline", old])
        #expect(unmatched.status == 1 && unmatched.stdout.contains("1 unmatched"))
    }

    /// Every policy column is a parameter that rows match by, the newest included: two policies that
    /// differ only in their granularity are different rows, not one row whose granularity_s failed.
    @Test func baselineRowsMatchByEveryPolicyColumn() throws {
        let directory = TemporaryDirectory()
        let (old, new) = (directory.file("old.csv"), directory.file("new.csv"))
        #expect(
            Invocation([
                "waits", "--runs", "1000", "--jitter", "none,full,equal", "--granularity", "1ms", "--output", old,
            ]).status == 0)
        #expect(
            Invocation([
                "waits", "--runs", "1000", "--jitter", "none,full,equal", "--granularity", "2ms", "--output", new,
            ]).status == 0)
        let check = Invocation(["check", new, "--baseline", old, "--rel", "0.5"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("6 unmatched"), "\(check.stdout)")
        #expect(!check.stdout.contains("relative difference"), "\(check.stdout)")
    }

    /// The columns `check --baseline` matches rows by are those the tables declare as parameters:
    /// every policy and scenario column, and the run's (runs, seed, generator, quantiles, the
    /// formula's budget, outage and server (its workers, queue and timeout), simulate's capacity
    /// shape (duration, expired drops, degradation window, trace), a sweep's point_id); never a
    /// measurement.
    @Test func baselineKeysAreTheDeclaredParameters() {
        let expected: Set = [
            "jitter", "base_s", "multiplier", "cap_s", "max_attempts", "schedule", "decorrelated_factor",
            "max_elapsed_s", "cap_mode", "first_retry", "granularity_s", "clients", "server", "bucket_s", "layers",
            "replicas", "hedge", "arrivals", "service", "layer_attempts", "runs", "seed", "generator", "quantiles",
            "wait_budget_s", "outage_s", "point_id", "workers", "queue", "timeout_s", "host_fault",
            "retry_host_predicate", "outlier_detection", "duration_s", "drop_expired", "degrade_from_s",
            "degrade_until_s", "degrade_to", "capacity_trace",
        ]
        #expect(CheckCommand.parameterColumns == expected)
    }

    @Test func aTableWithoutTheNeededColumnsIsAUsageError() throws {
        let directory = TemporaryDirectory()
        let table = directory.file("plain.csv")
        try write("a,b\n1,2\n", to: table)
        let result = Invocation(["check", table])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(
            result.stderr.contains(
                "expected the columns mean_total_wait_s, formula_mean_total_wait_s and se_mean_total_wait_s"))
    }

    @Test func csvReaderHandlesQuotesAndCRLF() {
        let text = "a,b,c\r\n1,\"x, \"\"y\"\"\",3\r\n4,5\r\n7,8,9"
        let journal = CSVReader(text: text, journal: true)
        #expect(journal.header == ["a", "b", "c"])
        #expect(journal.records == [["1", "x, \"y\"", "3"]])
        #expect(journal.malformedRecords == 2, "a short record and an unterminated last one (a write cut short)")
        // A file a person wrote may end without a line break: its last record is read.
        let written = CSVReader(text: text)
        #expect(written.records == [["1", "x, \"y\"", "3"], ["7", "8", "9"]])
        #expect(written.malformedRecords == 1)
    }
}
