import Foundation
import Testing

@testable import BackoffCLI

#if canImport(Glibc)
    import Glibc
#endif

/// One regression test per reproduction of the third reliability round: each used to trap (SIGILL
/// or SIGSEGV) or to break the command line's contract, and each now ends in a table or in exit 64
/// with a message that names the value and the accepted range, upper bound included.
@Suite struct ReliabilityTests {
    /// The traps, each with what its message must say.
    static let traps: [(id: String, arguments: [String], message: String)] = [
        (
            "a range of 4.5e33 values", ["sweep", "waits", "--multiplier", "1..9e33:2", "--runs", "10"],
            "Invalid list or range '1..9e33:2' for '--multiplier <number>': 4.5000000000045005e+33 values, more than 10000000"
        ),
        (
            "a count range at Int64.max",
            [
                "sweep", "waits", "--runs", "10", "--dry-run", "--max-attempts",
                "9223372036854775806..9223372036854775807:1",
            ],
            "Invalid value '9223372036854775806' for '--max-attempts <count>': out of range; expected a whole number from 1 to 1000000000"
        ),
        (
            "a count range of Int64.max values",
            ["sweep", "waits", "--runs", "10", "--dry-run", "--max-attempts", "0..9223372036854775807:1"],
            "Invalid list or range '0..9223372036854775807:1' for '--max-attempts <count>': 9223372036854775808 values, more than 10000000"
        ),
        (
            "max-retries + 1", ["formula", "--max-retries", "9223372036854775807"],
            "Invalid value '9223372036854775807' for '--max-retries <count>': out of range; expected a whole number from 0 to 999999999"
        ),
        (
            "a cap near Int64.max ns", ["waits", "--cap", "9223372036854775807ns"],
            "Invalid value '9223372036854775807ns' for '--cap <duration>': longer than virtual time holds, 2^62 ns (1281023h, about 146 years)"
        ),
        (
            "jobs", ["waits", "--runs", "100", "--jobs", "9223372036854775807"],
            "Invalid value '9223372036854775807' for '--jobs <count>': out of range; expected a whole number from 1 to 1024"
        ),
        (
            "an outage's fine bucket", ["formula", "--outage", "2s", "--bucket", "1ns"],
            "Invalid value '1ns' for '--bucket <duration>': the expected load spans 8,900,000,001 buckets of this width"
        ),
        (
            "a Retry-After of 100000 h",
            ["simulate", "--clients", "100", "--server-retry-after", "100000h", "--retry-after", "honor"],
            "Invalid value '10ms' (the default) for '--bucket <duration>': the load timeline would need 36000000001 buckets (limit 50000000)"
        ),
        (
            "a service time of 100000 h",
            [
                "simulate", "--clients", "100", "--server", "capacity", "--service", "fixed:100000h", "--max-memory",
                "8GiB",
            ],
            // Refused before it runs: the queue's 100 attempts of 100,000 h keep the timeline growing
            // to its limit of buckets (the estimate counts a capacity server's queueing), and the
            // message says the bucket is the default.
            "'simulate' would need about 17.9 GiB of memory, more than the limit of 8.0 GiB (--max-memory 8GiB); "
                + "most of it for --bucket 10ms (the default): 50,000,000 load buckets"
        ),
        (
            "a degraded capacity of 1e-300",
            [
                "simulate", "--clients", "20", "--server", "capacity", "--degrade-from", "0s",
                "--degrade-until", "1s", "--degrade-to", "1e-300",
            ],
            "the run's clock passed virtual time's horizon"
        ),
        (
            "hops at the horizon", ["simulate", "--clients", "20", "--server", "contention", "--hop-sd", "1281023h"],
            "the run's clock passed virtual time's horizon"
        ),
        (
            "a shard at Int64.max",
            [
                "sweep", "waits", "--runs", "10", "--multiplier", "1.5,2,3", "--shard",
                "9223372036854775807/9223372036854775807",
            ],
            "Invalid value '9223372036854775807/9223372036854775807' for '--shard <K/N>': expected K/N with 1 <= K <= N <= 10000000"
        ),
        (
            "tune's design",
            [
                "tune", "--clients", "20", "--max-attempts", "2", "--search", "base=10ms..1s", "--objective",
                "give_ups",
                "--design", "9223372036854775807",
            ],
            "Invalid value '9223372036854775807' for '--design <count>': out of range; expected a whole number from 2 to 10000"
        ),
    ]

    @Test(arguments: traps.indices)
    func aTrapOfRoundThreeIsAUsageError(index: Int) {
        let (id, arguments, message) = Self.traps[index]
        let result = Invocation(arguments)
        #expect(result.status == 64 && result.stdout.isEmpty, "\(id): exit \(result.status)")
        #expect(result.stderr.hasPrefix("backoff: \(message)"), "\(id): \(result.stderr)")
    }

    /// tune's memory: its largest candidate's run times --jobs, and the rows its design keeps.
    /// A capacity server keeps its clients in memory (a burst against an outage streams them).
    @Test func tuneFoldsTheDesignAndJobsIntoItsMemoryEstimate() {
        let result = Invocation([
            "tune", "--clients", "200000", "--server", "capacity", "--search", "base=10ms..1s,jitter=full|equal",
            "--objective", "give_ups",
            "--design", "10000", "--jobs", "8", "--max-memory", "100MiB",
        ])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "backoff: 'tune' would need about 390.3 MiB of memory, more than the limit of 100.0 MiB"),
            "\(result.stderr)")
        #expect(result.stderr.contains("8 candidates at once (--jobs)"), "\(result.stderr)")
        let rows = Invocation([
            "tune", "--clients", "10", "--search", "base=10ms..1s,jitter=full|equal", "--objective", "give_ups",
            "--design", "10000", "--jobs", "1", "--max-memory", "100MiB",
        ])
        #expect(
            rows.status == 64 && rows.stderr.contains("most of it for --design 10000: 20,000 candidates' rows kept"),
            "\(rows.stderr)")
    }

    /// A capacity trace whose factor is 1e-300 makes service times beyond the horizon.
    @Test func aCapacityTraceFactorOf1eMinus300StopsAtTheHorizon() throws {
        let directory = TemporaryDirectory()
        let trace = directory.file("capacity.csv")
        try "time_s,capacity_factor\n0,1e-300\n".write(toFile: trace, atomically: true, encoding: .utf8)
        let result = Invocation(["simulate", "--clients", "20", "--server", "capacity", "--capacity-trace", trace])
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr.contains("the run's clock passed virtual time's horizon"), "\(result.stderr)")
    }

    /// Options that do not apply are parsed all the same, and named in a warning.
    @Test func optionsThatDoNotApplyAreParsedAndWarnedAbout() {
        let bad = Invocation(["formula", "--clients", "nan", "--bucket", "-1s"])
        #expect(
            bad.status == 64 && bad.stderr.hasPrefix("backoff: Invalid value 'nan' for '--clients <count>'"),
            "\(bad.stderr)")
        let unused = Invocation(["formula", "--clients", "10", "--bucket", "1s"])
        #expect(unused.status == 0)
        #expect(unused.stderr.contains("warning: '--clients' applies only with --outage"), "\(unused.stderr)")
        #expect(unused.stderr.contains("warning: '--bucket' applies only with --outage"), "\(unused.stderr)")
        for (option, value) in [
            ("--hop", "nan"), ("--workers", "-1"), ("--service", "bogus"), ("--duration", "0x"), ("--timeout", "x"),
        ] {
            let ignored = Invocation(["simulate", "--clients", "10", "--server", "outage:1s", option, value])
            #expect(
                ignored.status == 64 && ignored.stderr.hasPrefix("backoff: Invalid value '\(value)' for '\(option) <"),
                "\(ignored.stderr)")
        }
    }

    /// A trace a person wrote may end without a line break: its last row counts.
    @Test func aTraceWithoutAFinalNewlineKeepsItsLastRow() throws {
        let directory = TemporaryDirectory()
        let trace = directory.file("t.csv")
        try "time_s,failure_probability\n0,1".write(toFile: trace, atomically: true, encoding: .utf8)
        let result = Invocation([
            "simulate", "--clients", "10", "--server", "trace:\(trace)", "--max-attempts", "2", "--jitter", "none",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.field("successes") == "0", "every attempt fails: the row 0,1 was read")
    }

    /// `check` and `--resume` refuse what is not a table with 64, and `/dev/zero` before reading it.
    @Test func checkAndResumeRefuseWhatIsNotATable() throws {
        let directory = TemporaryDirectory()
        let binary = directory.file("binary.csv")
        try Data([0x7F, 0x45, 0x4C, 0x46, 0, 1, 2, 0xFF]).write(to: URL(fileURLWithPath: binary))
        let cases: [([String], String)] = [
            (["check", directory.path], "is a directory"),
            (["check", "/dev/zero"], "is not a regular file"),
            (["check", binary], "is not UTF-8 text"),
            (["sweep", "waits", "--multiplier", "2,3", "--resume", binary], "is not UTF-8 text"),
        ]
        for (arguments, reason) in cases {
            let clock = ContinuousClock()
            var result: Invocation?
            let elapsed = clock.measure { result = Invocation(arguments) }
            #expect(result?.status == 64, "\(arguments): \(result?.stderr ?? "")")
            #expect(result?.stderr.contains(reason) == true, "\(arguments): \(result?.stderr ?? "")")
            #expect(elapsed < .seconds(2), "\(arguments) took \(elapsed)")
        }
    }

    /// An error names the option the user gave, and says where a default or a preset came in.
    @Test func errorsBlameWhatTheUserWrote() throws {
        let base = Invocation(["formula", "--base", "10s"])
        #expect(
            base.stderr.hasPrefix(
                "backoff: Invalid value '10s' for '--base <duration>': the base must be at most the cap (5s, the default)"
            ),
            "\(base.stderr)")
        let preset = Invocation(["formula", "--preset", "envoy-default", "--base", "1s"])
        #expect(
            preset.stderr.contains("the base must be at most the cap (250ms, from --preset envoy-default)"),
            "\(preset.stderr)")
        let directory = TemporaryDirectory()
        let config = directory.file("service.json")
        try
            #"{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":4,"initialBackoff":"0.1s","maxBackoff":"99999999999999999999s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let grpc = Invocation(["formula", "--grpc-service-config", config])
        #expect(grpc.status == 64)
        #expect(
            grpc.stderr.contains(
                "methodConfig[0].retryPolicy.maxBackoff: the string \"99999999999999999999s\" is longer than "
                    + "virtual time holds"), "\(grpc.stderr)")
        #expect(!grpc.stderr.contains("'--cap"), "the config's value is not an option the user gave: \(grpc.stderr)")
    }

    /// A trace's times and delays are checked against both bounds, and the message gives both.
    @Test func aTracesRangeMessageGivesBothBounds() throws {
        let directory = TemporaryDirectory()
        let trace = directory.file("t.csv")
        try "time_s,failure_probability,retry_after_s\n0,1,9223372036\n".write(
            toFile: trace, atomically: true, encoding: .utf8)
        let result = Invocation(["simulate", "--clients", "10", "--server", "trace:\(trace)"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("row 2, column retry_after_s: 9223372036 is not a delay from 0 to 4611686018 s"),
            "\(result.stderr)")
    }

    /// The smaller ones: help help, a megabyte echoed, a negative standard error, half a byte.
    @Test func theSmallerContractBreaches() throws {
        let help = Invocation(["help", "help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("backoff: analyse retry policies"), "\(help.stderr)")
        let huge = String(repeating: "9", count: 1_000_000)
        let echoed = Invocation(["waits", "--base", huge])
        #expect(echoed.status == 64 && echoed.stderr.count < 1_000, "the message is \(echoed.stderr.count) characters")
        #expect(echoed.stderr.contains("... (1000000 characters)"))
        let memory = Invocation(["waits", "--max-memory", "0.5B"])
        #expect(memory.status == 64 && memory.stderr.contains("expected a size of at least 1 B"), "\(memory.stderr)")

        let directory = TemporaryDirectory()
        let table = directory.file("waits.csv")
        #expect(Invocation(["waits", "--runs", "2000", "--jitter", "full", "--output", table]).status == 0)
        let text = try String(contentsOfFile: table, encoding: .utf8)
        let rows = text.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let column = try #require(rows[0].firstIndex(of: "se_mean_total_wait_s"))
        var negative = rows
        negative[1][column] = "-" + negative[1][column]
        try (negative.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n").write(
            toFile: table, atomically: true, encoding: .utf8)
        let check = Invocation(["check", table])
        #expect(check.status == 1, "a negative standard error fails the check: \(check.stdout) \(check.stderr)")
        #expect((check.stdout + check.stderr).contains("se_mean_total_wait_s is -"), "\(check.stdout)")
    }

    /// `--timeline -` writes the timeline to standard output when the table goes to a file, and is
    /// refused when both would go there.
    @Test func aDashIsStandardOutputAndOnlyOneTableMayGoThere() {
        let both = Invocation(["simulate", "--clients", "10", "--timeline", "-"])
        #expect(both.status == 64 && both.stdout.isEmpty)
        #expect(both.stderr.contains("'--timeline -' and the table would both go to standard output"), "\(both.stderr)")
        let samples = Invocation(["waits", "--runs", "10", "--samples", "-"])
        #expect(
            samples.status == 64
                && samples.stderr.contains("'--samples -' and the table would both go to standard output"))
    }

    /// A read-only file is refused, not replaced; a replaced file keeps its mode; a full device fails.
    @Test func outputFilesKeepWhatTheUserHas() throws {
        let directory = TemporaryDirectory()
        let protected = directory.file("protected.csv")
        try "keep me\n".write(toFile: protected, atomically: true, encoding: .utf8)
        chmod(protected, 0o444)
        let refused = Invocation(["presets", "--output", protected])
        #expect(
            refused.status == 1 && refused.stderr.contains("Cannot write '\(protected)': the file is read-only"),
            "\(refused.stderr)")
        #expect(try String(contentsOfFile: protected, encoding: .utf8) == "keep me\n")

        let shared = directory.file("shared.csv")
        try "old\n".write(toFile: shared, atomically: true, encoding: .utf8)
        chmod(shared, 0o640)
        #expect(Invocation(["presets", "--output", shared]).status == 0)
        var status = stat()
        stat(shared, &status)
        #expect(
            status.st_mode & 0o777 == 0o640, "the replaced file's mode is \(String(status.st_mode & 0o777, radix: 8))")
        #expect(directory.contents.sorted() == ["protected.csv", "shared.csv"])

        let full = Invocation(["presets", "--output", "/dev/full"])
        #expect(
            full.status == 1 && full.stderr.contains("Cannot write '/dev/full': No space left on device"),
            "\(full.stderr)")
    }
}
