import Foundation
import Testing

@testable import BackoffCLI

@Suite struct OutputTests {
    /// The documented leading columns of each command; users' scripts depend on names and order.
    @Test(arguments: [
        ("schedule", "attempt,wait_s,start_s"),
        ("formula", "jitter,base_s,multiplier,cap_s,max_attempts,mean_total_wait_s,sd_total_wait_s"),
        (
            "waits --runs 10",
            "jitter,base_s,multiplier,cap_s,max_attempts,runs,seed,mean_total_wait_s,sd_total_wait_s,se_mean_total_wait_s,"
                + "p50_total_wait_s,p90_total_wait_s,p99_total_wait_s,max_total_wait_s,formula_mean_total_wait_s,"
                + "formula_sd_total_wait_s,z_score"
        ),
        (
            "simulate --clients 10",
            "jitter,clients,server,base_s,multiplier,cap_s,max_attempts,seed,attempts_total,attempts_per_client,successes,"
                + "give_ups,mean_total_wait_s,p99_total_wait_s,mean_completion_s,peak_load,peak_load_time_s,peak_retry_load,"
                + "peak_retry_time_s,bucket_s"
        ),
    ])
    func headersBeginWithTheDocumentedColumns(commandLine: String, prefix: String) {
        let result = Invocation(commandLine)
        #expect(result.status == 0 && result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix(prefix + ","))
        let columns = result.rows.map(\.count)
        #expect(Set(columns).count == 1, "every row has one field per column")
    }

    @Test func scheduleListsTheExactAttemptTimes() {
        let result = Invocation("schedule --base 100ms --multiplier 2 --max-attempts 4")
        #expect(result.rows.dropFirst().map { $0[2] } == ["0", "0.1", "0.3", "0.7"])
        #expect(result.rows.dropFirst().map { $0[6] } == ["0", "0.1", "0.3", "0.7"])
    }

    @Test func sameSeedGivesIdenticalCSVAndAnotherSeedOtherSamples() {
        let first = Invocation("waits --runs 2000 --seed 7")
        #expect(first.stdout == Invocation("waits --runs 2000 --seed 7").stdout)
        #expect(first.stdout != Invocation("waits --runs 2000 --seed 8").stdout)
        let herd = Invocation("simulate --clients 500 --seed 7")
        #expect(herd.stdout == Invocation("simulate --clients 500 --seed 7").stdout)
    }

    @Test func outputIsTheSameWhateverTheThreadCount() {
        for command in ["waits --runs 3000", "simulate --clients 300 --server bernoulli:0.5"] {
            let one = Invocation(command + " --jobs 1")
            #expect(one.status == 0)
            #expect(one.stdout == Invocation(command + " --jobs 2").stdout, "\(command)")
            #expect(one.stdout == Invocation(command + " --jobs 4").stdout, "\(command)")
        }
    }

    /// A jitter mode's numbers do not depend on which other modes run beside it.
    @Test func aModesRowDoesNotDependOnTheOtherModes() {
        let all = Invocation("waits --runs 1000")
        let alone = Invocation("waits --runs 1000 --jitter equal")
        #expect(all.rows.first { $0.first == "equal" } == alone.rows.last)
    }

    @Test func outputFileAndSideFilesAreWrittenWhole() throws {
        let directory = TemporaryDirectory()
        let table = directory.file("waits.csv")
        let samples = directory.file("samples.csv")
        let result = Invocation(["waits", "--runs", "250", "--output", table, "--samples", samples])
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(try String(contentsOfFile: table, encoding: .utf8) == Invocation("waits --runs 250").stdout)
        let lines = try String(contentsOfFile: samples, encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "jitter,run,total_wait_s")
        #expect(lines.count == 1 + 4 * 250)
        #expect(lines[1] == "none,1,1.5" && lines.last?.hasPrefix("decorrelated,250,") == true)
        #expect(directory.contents == ["samples.csv", "waits.csv"])

        let timeline = directory.file("load.csv")
        let herd = Invocation(["simulate", "--clients", "100", "--jitter", "none", "--timeline", timeline])
        #expect(herd.status == 0)
        let buckets = try String(contentsOfFile: timeline, encoding: .utf8).split(separator: "\n")
        #expect(
            buckets.first
                == "jitter,bucket_start_s,attempts,retries,successes,failures,rejected,timeouts,expected_attempts,expected_retries,peak_queue,fill_rate,concurrency_limit"
        )
        // No rate limiter and no concurrency limit: the fill rate and the limit are empty.
        #expect(buckets[1] == "none,0,100,0,0,100,0,0,100,0,0,,")
        #expect(buckets.contains("none,0.1,100,100,0,100,0,0,100,100,0,,"))
    }

    /// The simulated means agree with means derived here by hand, not with the CLI's own formula and
    /// z: base 0.1 s, m = 2, cap 1 s, 8 attempts, so the nominal waits are 0.1, 0.2, 0.4, 0.8, 1, 1, 1
    /// (sum 4.5 s, sum of squares 3.85 s²). No jitter waits exactly 4.5 s; full jitter, U(0, e), has
    /// mean 4.5/2 and variance 3.85/12; equal jitter, e/2 + U(0, e/2), mean 3·4.5/4 and variance
    /// 3.85/48. With 20,000 runs the standard errors are sd/√20000: 4.005 ms (full), 2.003 ms (equal),
    /// and |mean − E| ≤ 4 se (a correct sampler fails one check in about 16,000). The CLI's se column
    /// must match the derived se within 5 % (its sample sd errs by about 1/√(2n) = 0.5 %), and its
    /// z_score must be (mean − formula)/se, so a z divided by the sd, or an se off by √n, fails.
    @Test func waitsMeansAgreeWithHandDerivedMoments() throws {
        let seed = 12
        let result = Invocation("waits --runs 20000 --cap 1s --max-attempts 8 --seed \(seed) --jitter none,full,equal")
        let derived: [(jitter: String, mean: Double, se: Double)] = [
            ("none", 4.5, 0), ("full", 2.25, (3.85 / 12).squareRoot() / 20_000.0.squareRoot()),
            ("equal", 3.375, (3.85 / 48).squareRoot() / 20_000.0.squareRoot()),
        ]
        for (row, expected) in derived.enumerated() {
            #expect(result.field("jitter", row: row) == expected.jitter)
            let mean = try #require(Double(result.field("mean_total_wait_s", row: row) ?? ""))
            let se = try #require(Double(result.field("se_mean_total_wait_s", row: row) ?? ""))
            let formula = try #require(Double(result.field("formula_mean_total_wait_s", row: row) ?? ""))
            let z = try #require(Double(result.field("z_score", row: row) ?? ""))
            #expect(abs(formula - expected.mean) < 1e-12, "\(expected.jitter): the formula says \(formula)")
            if expected.se == 0 {
                #expect(
                    mean == expected.mean && se == 0 && z == 0, "\(expected.jitter): mean \(mean), se \(se), z \(z)")
                continue
            }
            #expect(
                abs(mean - expected.mean) <= 4 * expected.se,
                "seed \(seed), \(expected.jitter): mean \(mean) vs \(expected.mean)")
            #expect(
                abs(se / expected.se - 1) < 0.05, "seed \(seed), \(expected.jitter): se \(se) vs derived \(expected.se)"
            )
            #expect(abs(z - (mean - formula) / se) < 1e-6 * max(1, abs(z)), "\(expected.jitter): z_score \(z)")
        }
    }

    @Test func helpIsTheSameEitherWayAndGoesToStdout() {
        for command in ["schedule", "formula", "waits", "simulate"] {
            let help = Invocation(["help", command])
            #expect(help.status == 0 && help.stderr.isEmpty)
            #expect(help.stdout == Invocation([command, "--help"]).stdout)
            #expect(help.stdout.contains("OPTIONS:") && help.stdout.contains("EXAMPLE:"))
            #expect(help.stdout.contains("--seed") == (command != "formula"))
        }
        let servers = Invocation(["help", "servers"])
        #expect(servers.status == 0)
        #expect(
            ["always-fail", "bernoulli:P", "outage:T", "contention", "capacity"].allSatisfy {
                servers.stdout.contains($0)
            })
        let overview = Invocation(["help"])
        #expect(overview.status == 0 && overview.stdout.contains("COMMANDS:"))
        #expect(Invocation(["--help"]).stdout == overview.stdout)
    }

    /// A throttle log `backoff limiter` needs (the SDKs' shared test vector).
    static let limiterLog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance/limiter/sdk-vector.csv").path

    /// Every option in a command's help is accepted by that command, with its default value.
    @Test func everyDocumentedDefaultParses() {
        for command in Commands.tables {
            for spec in command.specs {
                guard let value = spec.defaultValue else { continue }
                var arguments = [command.name, "--\(spec.name)", value]
                if command.name == "waits" && spec.name != "runs" { arguments += ["--runs", "10"] }
                if command.name == "simulate" && spec.name != "clients" { arguments += ["--clients", "10"] }
                if command.name == "limiter" && spec.name != "events" { arguments += ["--events", Self.limiterLog] }
                #expect(Invocation(arguments).status == 0, "\(arguments)")
            }
        }
    }
}

@Suite struct ReferenceDataTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The small reference datasets regenerate byte for byte (scripts/make-notebooks-data --check
    /// covers all of them).
    @Test(arguments: [
        ("formula-default.csv", "formula"),
        ("outage-10k.csv", "simulate --clients 10000 --server outage:2s --max-attempts 8 --seed 2015"),
    ])
    func referenceDatasetRegeneratesByteForByte(file: String, commandLine: String) throws {
        let committed = try String(
            contentsOf: Self.root.appendingPathComponent("notebooks-data").appendingPathComponent(file), encoding: .utf8
        )
        #expect(Invocation(commandLine).stdout == committed, "\(file)")
    }

    /// Writing to a special file goes straight to it: renaming over /dev/null would replace the device.
    @Test func specialFilesAreWrittenInPlace() throws {
        let result = Invocation(["formula", "--output", "/dev/null"])
        #expect(result.status == 0)
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
    }
}
