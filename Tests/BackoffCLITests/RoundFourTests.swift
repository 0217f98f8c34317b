import Foundation
import Testing

@testable import BackoffCLI

/// The crashes, hangs and losses of the user's files found in round four (issue 43), each by its
/// command: a table, or a usage error that writes no data; and nothing the user has is lost.
@Suite struct RoundFourTests {
    /// A gRPC service config with a `hedgingPolicy` of `copies` attempts.
    static func hedgingConfig(copies: Int, in directory: TemporaryDirectory) throws -> String {
        try directory.write(
            """
            {"methodConfig": [{"name": [{"service": "x"}], "hedgingPolicy": {"maxAttempts": \(copies),
              "hedgingDelay": "0.01s", "nonFatalStatusCodes": ["UNAVAILABLE"]}}]}
            """, to: "hedging-\(copies).json")
    }

    /// A hedge whose copies fail at once (a full queue) sends its next copy at the instant its timer
    /// was armed for: that timer then must not send one more than the hedge's copies (it crashed
    /// with 3 or more, one replica or several).
    @Test(arguments: [3, 4, 5])
    func aHedgeOfThreeOrMoreCopiesNeverSendsMore(copies: Int) throws {
        let directory = TemporaryDirectory()
        let config = try Self.hedgingConfig(copies: copies, in: directory)
        for replicas in ["1", "2", "7"] {
            let run = Invocation([
                "simulate", "--grpc-service-config", config, "--server", "capacity", "--queue", "1", "--clients", "200",
                "--replicas", replicas, "--jobs", "1",
            ])
            #expect(run.status == 0, "\(copies) copies, \(replicas) replicas: \(run.stderr)")
            let perRequest = try #require(run.field("copies_per_request").flatMap(Double.init))
            #expect(perRequest >= 1 && perRequest <= Double(copies), "\(perRequest) copies per request")
        }
        let flag = Invocation([
            "simulate", "--server", "capacity", "--hedge", "on:delay=10ms:max-attempts=\(copies)", "--clients", "100",
            "--jobs", "1",
        ])
        #expect(flag.status == 0, "\(flag.stderr)")
    }

    /// A percentile hedge has no closed form: a layer's is written with empty formula columns.
    @Test func aLayersPercentileHedgeHasNoClosedFormAndRuns() {
        let run = Invocation([
            "simulate", "--server", "capacity", "--layer", "hedge-percentile=0.9", "--clients", "100", "--jobs", "1",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.field("formula_copies_per_request") == "", "\(run.stdout.prefix(300))")
    }

    /// The hedges' work in nanoseconds passes 2^63 (400 clients of 10,000 h services), and is summed
    /// in 128 bits: 400 x 10,000 h x 2 replicas' copies.
    @Test func hedgeWorkPastSixtyFourBitsIsSummed() throws {
        let run = Invocation([
            "simulate", "--server", "capacity", "--replicas", "2", "--service", "fixed:10000h", "--clients", "400",
            "--hedge", "on:delay=10ms", "--bucket", "100000h", "--workers", "400", "--jobs", "1", "--jitter", "none",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let work = try #require(run.field("work_per_request_s").flatMap(Double.init))
        // Every request runs two copies of 36,000,000 s to their end or to the winner's: at least one.
        #expect(work >= 36_000_000 && work <= 72_000_000, "\(work)")
    }

    /// An implied maximum (10 x the base) past 2^62 ns is refused, naming the key.
    @Test func aHugeHedgeBackoffBaseIsAUsageError() {
        let run = Invocation([
            "simulate", "--server", "capacity", "--hedge", "on:per-try-timeout=1ms:backoff-base=300000h", "--clients",
            "10",
        ])
        #expect(run.status == 64 && run.stdout.isEmpty)
        #expect(run.stderr.contains("'backoff-base=300000h': the backoff maximum, 10 x the base when not given"))
    }

    /// Ten tiers of ten attempts: 10^10 attempts a request. The bound is announced before the run,
    /// and --work-limit refuses it with the factors.
    @Test func workPastTheLimitIsRefusedWithItsFactors() {
        let layers = Array(repeating: ["--layer", "max-attempts=10"], count: 9).flatMap { $0 }
        let run = Invocation(
            [
                "simulate", "--clients", "1000", "--server", "always-fail", "--max-attempts", "10", "--jitter", "none",
                "--bucket", "1000000h", "--work-limit", "1e9",
            ] + layers)
        #expect(run.status == 64 && run.stdout.isEmpty)
        #expect(
            run.stderr.hasPrefix(
                "backoff: 'simulate' could make up to 10,000,000,000,000 server attempts (1,000 clients x 10 attempts x "
                    + "10 at a layer"),
            "\(run.stderr)")
        let swept = Invocation(["sweep", "simulate", "--clients", "10", "--work-limit", "25", "--max-attempts", "2,3"])
        #expect(swept.status == 64 && swept.stdout.isEmpty, "a sweep holds every point to the limit")
        #expect(swept.stderr.contains("more than --work-limit 25") && swept.stderr.contains("max-attempts=3"))
        let small = Invocation(["simulate", "--clients", "100", "--work-limit", "1e9", "--jobs", "1"])
        #expect(small.status == 0 && small.stderr.isEmpty, "\(small.stderr)")
    }

    /// A capacity server's queue keeps the timeline growing: the estimate counts it (the issue's
    /// example estimated 5.8 MiB and peaked at 5.0 GB).
    @Test func aCapacityBacklogCountsInTheMemoryEstimate() {
        let run = Invocation([
            "simulate", "--clients", "40000", "--server", "capacity", "--workers", "1", "--queue", "1000000",
            "--service", "fixed:1000s", "--max-memory", "100MB",
        ])
        #expect(run.status == 64 && run.stdout.isEmpty)
        #expect(run.stderr.contains("most of it for --bucket 10ms (the default)"), "\(run.stderr)")
    }

    // MARK: Nothing the user has is lost

    /// An output that is an input of the run (the same file by device and inode, a link included)
    /// is refused before anything is written, and the input is intact.
    @Test func anOutputThatIsAnInputIsRefused() throws {
        let directory = TemporaryDirectory()
        let config = try Self.hedgingConfig(copies: 2, in: directory)
        let trace = try directory.write("time_s,failure_probability\n0,1\n1,0\n", to: "trace.csv")
        let events = try directory.write("time_s,event\n0,send\n0.1,success\n", to: "events.csv")
        let link = directory.file("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: config)
        let cases: [[String]] = [
            ["simulate", "--grpc-service-config", config, "--clients", "10", "--output", config],
            ["simulate", "--grpc-service-config", config, "--clients", "10", "--output", link],
            ["simulate", "--grpc-service-config", link, "--clients", "10", "--output", config],
            ["simulate", "--server", "trace:\(trace)", "--clients", "10", "--output", trace],
            ["simulate", "--server", "trace:\(trace)", "--clients", "10", "--timeline", trace],
            ["limiter", "--events", events, "--output", events],
            [
                "tune", "--grpc-service-config", config, "--clients", "5", "--design", "2", "--objective", "give_ups",
                "--search", "base=10ms..1s", "--output", config,
            ],
        ]
        let before = try [config, trace, events].map { try String(contentsOfFile: $0, encoding: .utf8) }
        for arguments in cases {
            let run = Invocation(arguments)
            #expect(run.status == 64 && run.stdout.isEmpty, "\(arguments): exit \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("it is a file this run reads as an input"), "\(arguments): \(run.stderr)")
        }
        let after = try [config, trace, events].map { try String(contentsOfFile: $0, encoding: .utf8) }
        #expect(before == after)
        #expect(!directory.contents.contains { $0.contains(".tmp-") }, "\(directory.contents)")
    }

    /// An output that is a link writes the file it names, and the link stays a link; a link to a
    /// file not there yet creates it.
    @Test func anOutputLinkStaysALink() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("target.csv")
        let link = directory.file("link.csv")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        for _ in 0..<2 {  // first the target does not exist, then it does
            #expect(Invocation(["waits", "--runs", "10", "--output", link]).status == 0)
            let attributes = try FileManager.default.attributesOfItem(atPath: link)
            #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
            #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("jitter,"))
        }
        #expect(directory.contents == ["link.csv", "target.csv"])
    }

    /// A temporary file that a killed run left (its process gone) is removed by the next writer of
    /// the same output; one of a live process is not.
    @Test func aKilledRunsTemporaryFileIsRemovedByTheNextWriter() throws {
        let directory = TemporaryDirectory()
        // Process ids are below 2^22 on Linux: this one runs nowhere.
        try directory.write("half", to: ".table.csv.tmp-4194303-0")
        try directory.write("live", to: ".table.csv.tmp-\(getpid())-999")
        #expect(Invocation(["waits", "--runs", "10", "--output", directory.file("table.csv")]).status == 0)
        #expect(directory.contents == [".table.csv.tmp-\(getpid())-999", "table.csv"])
    }
}
