import Foundation
import Testing

@testable import BackoffCLI

/// `--config FILE --config-route PROFILE`: an AWS shared config profile as the policy's start.
/// (The reading itself is AWSSharedConfigTests', and scripts/conformance compares it with botocore.)
@Suite struct ConfigOptionTests {
    static let config = """
        # ~/.aws/config
        [default]
        region = us-east-1
        output = json

        [profile batch]
        retry_mode = adaptive
        max_attempts = 6

        [profile old]
        retry_mode = legacy
        """

    /// The default profile is botocore's standard mode, 3 attempts: E[W] = (0.05 + 0.1)/2 s.
    @Test func theDefaultProfileIsTheStandardMode() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "config")
        let run = Invocation(["formula", "--config", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.field("base_s") == "0.05" && run.field("cap_s") == "20" && run.field("max_attempts") == "3")
        #expect(run.field("mean_total_wait_s") == "0.075")
        #expect(run.stderr.contains("using profile 'default' of --config \(path) ([default]): retry_mode standard"))
        #expect(run.stderr.contains("keys region, output say nothing about retries"), "\(run.stderr)")
    }

    /// A profile's attempts and mode: the legacy mode is rand × 2^(n-1) s, uncapped, 5 attempts,
    /// E[W] = (1 + 2 + 4 + 8)/2 = 7.5 s; options given override the file.
    @Test func aProfilesSettingsAndTheOptionsOverThem() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "config")
        let batch = Invocation(["formula", "--config", path, "--config-route", "batch"])
        #expect(batch.status == 0 && batch.field("max_attempts") == "6", "\(batch.stderr)")
        let old = Invocation(["formula", "--config", path, "--config-route", "old"])
        #expect(old.field("base_s") == "1" && old.field("cap_s") == "inf" && old.field("mean_total_wait_s") == "7.5")
        let overridden = Invocation(["formula", "--config", path, "--config-route", "batch", "--max-attempts", "2"])
        #expect(overridden.field("max_attempts") == "2")
        let throttled = Invocation(["formula", "--config", path, "--failure-kind", "throttling"])
        #expect(throttled.field("base_s") == "1", "throttling errors back off from 1 s in the standard mode")
    }

    /// The adaptive mode brings its quota and rate limiter to simulate, named as from the file.
    @Test func theAdaptiveModeBringsItsLimits() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "config")
        let run = Invocation([
            "simulate", "--config", path, "--config-route", "batch", "--clients", "50", "--server", "ratelimit:20/s",
            "--seed", "3",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.field("max_attempts") == "6")
        let preset = Invocation([
            "simulate", "--preset", "aws-sdk-adaptive", "--max-attempts", "6", "--clients", "50", "--server",
            "ratelimit:20/s", "--seed", "3",
        ])
        #expect(run.stdout == preset.stdout, "the profile is the preset with its attempts")
    }

    /// A layer takes a profile as its policy (`config=FILE,config-route=NAME`), and says so on
    /// stderr: the legacy mode's 5 attempts against always-fail, no quota, make 5 attempts below per
    /// call from above.
    @Test func aLayerTakesAProfile() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "config")
        let report = directory.file("layers.csv")
        let run = Invocation([
            "simulate", "--clients", "100", "--server", "always-fail", "--jitter", "none", "--max-attempts", "2",
            "--layer", "name=api,config=\(path),config-route=old", "--layer-report", report, "--output", "/dev/null",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        let api = try #require(rows.first { $0.count > 4 && $0[2] == "api" })
        let attempts = try #require(rows[0].firstIndex(of: "attempts"))
        #expect(api[attempts] == "1000", "200 calls from the clients, 5 attempts each: \(api)")
        #expect(run.stderr.contains("(layer 1): using profile 'old' of --config \(path)"), "\(run.stderr)")
    }

    /// Bad input: exit 64, nothing written, a message naming the value and the accepted form.
    @Test func badInputIsRefusedAndNamed() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "config")
        let empty = try directory.write("# nothing\n\n", to: "empty")
        let yaml = try directory.write("route:\n  retry_policy:\n    num_retries: 3\n", to: "envoy.yaml")
        let broken = try directory.write("[default]\nmax_attempts = 0\n", to: "broken")
        let big = try directory.write("[default]\n" + String(repeating: "# padding\n", count: 120_000), to: "big")
        let cases: [([String], String)] = [
            (["--config", directory.file("absent")], "the file cannot be read"),
            (["--config", directory.path], "the file cannot be read"),
            (["--config", empty], "nothing but blank lines and comments"),
            (["--config", yaml], "--config reads AWS shared config files (INI) and Envoy configurations"),
            (["--config", big], "larger than 1 MiB"),
            (["--config", broken], "[default] max_attempts, line 2: expected an integer from 1 to 1000000000"),
            (["--config", path, "--config-route", "prod"], "no profile 'prod' in the file; its profiles: 'default'"),
            (["--config", path, "--config-route", ""], "no profile '' in the file"),
            (["--config", path, "--preset", "aws-sdk-standard"], "Use one of '--preset', '--config'"),
            (["--config", path, "--grpc-service-config", path], "Use one of '--grpc-service-config', '--config'"),
        ]
        for (arguments, message) in cases {
            let run = Invocation(["formula"] + arguments)
            #expect(run.status == 64 && run.stdout.isEmpty, "\(arguments): exit \(run.status)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let ignored = Invocation(["formula", "--config-route", "batch"])
        #expect(ignored.status == 0 && ignored.stderr.contains("'--config-route' has no effect without '--config'"))
    }

    /// The config is an input: an output onto it, or onto a link to it, is refused and it is intact.
    @Test func anOutputOntoTheConfigIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "config")
        let link = directory.file("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        for output in [path, link] {
            let run = Invocation(["simulate", "--config", path, "--clients", "10", "--output", output])
            #expect(run.status == 64 && run.stderr.contains("it is a file this run reads as an input"), "\(run.stderr)")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.config)
    }

    /// A sweep takes the file's policy at every point, and its jitter is the file's, not an axis.
    @Test func aSweepTakesTheFilesPolicy() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(Self.config, to: "config")
        let run = Invocation(["sweep", "formula", "--config", path, "--config-route", "batch", "--base", "10ms,20ms"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.rows.count == 3 && run.field("max_attempts") == "6" && run.field("jitter") == "full")
    }
}
