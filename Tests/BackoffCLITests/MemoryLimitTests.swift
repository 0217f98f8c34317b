import Foundation
import Testing

@testable import BackoffCLI

/// Runs whose parameters would exhaust memory are refused before anything is allocated: exit 64, a
/// message naming the parameter, the estimate and the limit, nothing written.
@Suite struct MemoryLimitTests {
    /// Runs `arguments` with an existing output file, which must survive untouched.
    func refused(_ arguments: [String]) throws -> String {
        let directory = TemporaryDirectory()
        let output = try directory.write("keep me\n", to: "table.csv")
        let result = Invocation(arguments + ["--output", output])
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me\n")
        #expect(directory.contents == ["table.csv"], "no temporary file may remain")
        return result.stderr
    }

    /// The issue's examples. Arrivals of more clients than a run holds (2^28 - 1) are refused by
    /// their count before memory is estimated; 200 million clients of a capacity server need
    /// 27 GiB, so a limit of 8 GiB refuses them. (Clients that do not interact keep nothing each:
    /// see `StreamedTotalWaitTests`.)
    @Test func theIssuesExamplesAreRefused() throws {
        let poisson = try refused(["simulate", "--arrivals", "poisson:1000000000000", "--jobs", "1"])
        #expect(
            poisson.hasPrefix(
                "backoff: Invalid value 'poisson:1000000000000' for '--arrivals <process>': the arrivals would "
                    + "bring about 10000000000000 clients; at most 268435455 fit in one run"), "\(poisson)")
        let many = try refused([
            "simulate", "--arrivals", "poisson:20000000", "--server", "capacity", "--jobs", "1", "--max-memory", "8GiB",
        ])
        #expect(
            many.hasPrefix("backoff: 'simulate' would need about 26.8 GiB of memory, more than the limit of 8.0 GiB"),
            "\(many)")
        #expect(
            many.contains(
                "most of it for --arrivals poisson:20,000,000 over --duration 10s: up to 200,084,854 clients, 144 bytes each"
            ))
    }

    /// Huge bucket counts: a burst's timeline is bounded by its longest wait (refused by the bucket
    /// limit); arrivals over an hour at 1 ns buckets fill the timeline to its 50,000,000-bucket limit,
    /// which the estimate charges to --bucket.
    @Test func hugeBucketCountsAreRefused() throws {
        let burst = try refused(["simulate", "--clients", "100", "--bucket", "1ns", "--server", "outage:1h"])
        #expect(burst.contains("for '--bucket <duration>': the load timeline would need"))
        let arrivals = try refused([
            "simulate", "--arrivals", "poisson:1", "--duration", "1h", "--bucket", "1ns", "--jobs", "1",
            "--max-memory", "1GiB",
        ])
        #expect(arrivals.contains("most of it for --bucket 1ns: 50,000,000 load buckets, 64 bytes each"), "\(arrivals)")
    }

    /// A sweep's rows are counted before any point is built, and each point's run with them.
    @Test func hugeSweepsAreRefused() throws {
        // 300,000 run counts x 4 multipliers x the 4 jitter modes: 4,800,000 points, 9.2 GiB of rows.
        let grid = try refused([
            "sweep", "waits", "--runs", "1..300000:1", "--multiplier", "1..4:1", "--max-memory", "1GiB",
        ])
        #expect(grid.contains("most of it for the sweep's 4,800,000 points: a row of about 2 KB each"), "\(grid)")
        let point = try refused([
            "sweep", "simulate", "--server", "capacity", "--clients", "2,100000000", "--jobs", "1", "--max-memory",
            "4GiB",
        ])
        #expect(point.contains("most of it for --clients 100000000: 100,000,000 clients, 144 bytes each"), "\(point)")
    }

    /// waits with --samples holds every sample; schedule holds a row per attempt.
    @Test func waitsSamplesAndLongSchedulesAreRefused() throws {
        let waits = try refused(["waits", "--runs", "100000000", "--samples", "/dev/null", "--max-memory", "1GiB"])
        #expect(
            waits.contains("most of it for --samples with --runs 100000000: 400,000,000 samples held until written"),
            "\(waits)")
        let schedule = try refused(["schedule", "--max-attempts", "100000000", "--cap", "1s", "--max-memory", "1GiB"])
        #expect(schedule.contains("most of it for --max-attempts: 100,000,000 rows"), "\(schedule)")
    }

    /// Ordinary runs stay well under the default limit, and a malformed size is a usage error.
    @Test func ordinaryRunsPassAndSizesAreParsed() {
        #expect(Invocation("simulate --clients 1000").status == 0)
        #expect(MemoryLimit.size("8GiB") == 8_589_934_592.0)
        #expect(MemoryLimit.size("1.5GB") == 1.5e9)
        #expect(MemoryLimit.size("512KiB") == 524_288.0)
        #expect(MemoryLimit.size("100") == nil && MemoryLimit.size("-1GB") == nil && MemoryLimit.size("GB") == nil)
        let bad = Invocation("waits --max-memory 5")
        #expect(bad.status == 64)
        #expect(
            bad.stderr.hasPrefix(
                "backoff: Invalid value '5' for '--max-memory <size>': expected a size of at least 1 B with a unit"))
        #expect(
            MemoryLimit.size("0.5B") == nil && MemoryLimit.size("1B") == 1,
            "a limit below one byte is refused, not read as 0 B")
    }
}
