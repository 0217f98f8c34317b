import BackoffPolicies
import Foundation
import Testing

@testable import BackoffCLI

/// `backoff lint`: each rule fires on a configuration built from its cited case and stays quiet on
/// the same configuration with the fault removed; the exit code follows `--fail-on` and the
/// assertions; bad input is a usage error.
@Suite struct LintCommandTests {
    /// The rules that fired, by name, and the exit code.
    private func lint(_ arguments: [String]) -> (rules: [String], status: Int32, run: Invocation) {
        let run = Invocation(["lint"] + arguments)
        let rules = run.rows.dropFirst().compactMap { row in row.count > 3 && row[3] == "finding" ? row[1] : nil }
        return (rules, run.status, run)
    }

    @Test(arguments: [
        // Brooker 2015: no jitter; full jitter spreads the clients.
        ("no-jitter", ["--jitter", "none", "--max-attempts", "3"], ["--jitter", "full", "--max-attempts", "3"]),
        // aws-sdk-swift clamps after the draw: 10 attempts put 31 % of the waits at 20 s (README); with
        // its own 3 attempts none reaches the cap.
        ("waits-at-the-cap", ["--preset", "aws-sdk-swift", "--max-attempts", "10"], ["--preset", "aws-sdk-swift"]),
        // soto honours Retry-After as it is; aws-sdk-standard ignores it.
        ("retry-after-in-lockstep", ["--preset", "soto-default"], ["--preset", "aws-sdk-standard"]),
        // The SRE book's 4 attempts at 3 tiers; with a budget at every tier the rule is quiet.
        (
            "multiplied-retries",
            ["--jitter", "full", "--max-attempts", "4", "--layer", "max-attempts=4", "--layer", "max-attempts=4"],
            [
                "--jitter", "full", "--max-attempts", "4", "--budget", "ratio:percent=0.1",
                "--layer", "max-attempts=4,budget=ratio:percent=0.1", "--layer",
                "max-attempts=4,budget=ratio:percent=0.1",
            ]
        ),
        // A per-try timeout as long as the deadline (Envoy ignores one); a shorter one is fine.
        (
            "per-try-timeout-not-below-deadline",
            ["--jitter", "full", "--layer", "timeout=2s", "--deadline", "2s"],
            ["--jitter", "full", "--layer", "timeout=500ms", "--deadline", "2s"]
        ),
        // Equal jitter's first wait is at least 50 ms: a 10 ms elapsed limit stops every retry.
        (
            "elapsed-limit-before-first-retry", ["--jitter", "equal", "--max-elapsed", "10ms"],
            ["--jitter", "equal", "--max-elapsed", "1s"]
        ),
        // Vulimiri et al.: copies nobody cancels are load.
        (
            "hedge-without-cancellation", ["--jitter", "full", "--hedge", "on:delay=10ms:cancel=no"],
            ["--jitter", "full", "--hedge", "on:delay=10ms:cancel=yes"]
        ),
        // urllib3 retries at once (backoff_factor * 2^0 = 0 s is skipped): into a 429's window.
        (
            "immediate-retry-into-a-rate-limit", ["--preset", "urllib3-requests", "--failure-kind", "throttling"],
            ["--preset", "urllib3-requests"]
        ),
        // Envoy's 20 % with a floor of 3: at 10 requests a second of 50 ms, 0.5 are active and the
        // floor decides; at 10,000, 500 are active and 20 % (100 retries in flight) does.
        (
            "budget-floor-dominates",
            [
                "--jitter", "full", "--budget", "concurrency:percent=0.2:min=3", "--request-rate", "10", "--latency",
                "50ms",
            ],
            [
                "--jitter", "full", "--budget", "concurrency:percent=0.2:min=3", "--request-rate", "10000", "--latency",
                "50ms",
            ]
        ),
        // ...and behind AWS's adaptive limiter; a jittered first retry is fine there.
        (
            "immediate-retry-into-a-rate-limit",
            ["--jitter", "full", "--first-retry", "immediate", "--throttle", "aws-adaptive"],
            ["--jitter", "full", "--throttle", "aws-adaptive"]
        ),
    ])
    func eachRuleFiresOnItsCaseAndNotWithoutIt(rule: String, fires: [String], quiet: [String]) {
        let fired = lint(fires)
        #expect(fired.rules.contains(rule), "\(fires): \(fired.rules) \(fired.run.stderr)")
        let calm = lint(quiet)
        #expect(calm.run.status == 0 || calm.run.status == 1, "\(quiet): \(calm.run.stderr)")
        #expect(!calm.rules.contains(rule), "\(quiet): \(calm.rules)")
    }

    /// The presets as they ship: three raise a warning each (Alamofire's and Polly v8's defaults
    /// have no jitter, soto waits Retry-After as it is, urllib3 clamps a fifth of its waits to the
    /// cap), and none raises an error. The list is a finding of its own (issue 49's note).
    @Test func thePresetsRaiseOnlyTheirRules() {
        let expected: [String: [String]] = [
            "alamofire-default": ["no-jitter"], "polly-v8-default": ["no-jitter"],
            "soto-default": ["retry-after-in-lockstep"], "urllib3-requests": ["waits-at-the-cap"],
        ]
        for preset in Preset.all {
            let run = lint(["--preset", preset.name, "--fail-on", "none"])
            #expect(run.status == 0, "\(preset.name): \(run.run.stderr)")
            #expect(run.rules == (expected[preset.name] ?? []), "\(preset.name): \(run.rules)")
        }
    }

    /// The findings' numbers: 4 x 4 x 4 = 64 attempts (an error above 10), and the clamped share
    /// of aws-sdk-swift's waits at its cap.
    @Test func findingsCarryTheirNumbers() throws {
        let stack = lint([
            "--jitter", "full", "--max-attempts", "4", "--layer", "max-attempts=4", "--layer", "max-attempts=4",
        ])
        #expect(
            stack.run.stdout.contains(
                "multiplied-retries,error,finding,\"3 tiers retry, not all with a budget: "
                    + "4 (clients) x 4 (layer1) x 4 (layer2) = 64 attempts"))
        #expect(stack.status == 1)
        let two = lint(["--preset", "aws-sdk-standard", "--layer", "max-attempts=3"])
        #expect(two.run.field("severity") == "warning" && two.status == 0, "9 attempts: a warning, below 10")
        let swift = lint(["--preset", "aws-sdk-swift", "--max-attempts", "10"])
        #expect(swift.run.stdout.contains("cap rule clamp: 31."), "\(swift.run.stdout)")
    }

    /// The CI step: an assertion passes or fails the run; --fail-on sets which findings do.
    @Test func assertionsAndFailOnDecideTheExitCode() throws {
        let step = lint(["--preset", "aws-sdk-standard", "--layer", "max-attempts=3", "--max-amplification", "10"])
        #expect(step.status == 0, "\(step.run.stdout)\(step.run.stderr)")
        #expect(step.run.stdout.contains("max-amplification,error,pass,amplification 9 (3 x 3) against at most 10"))
        let tight = lint(["--preset", "aws-sdk-standard", "--layer", "max-attempts=3", "--max-amplification", "8"])
        #expect(tight.status == 1 && tight.run.stdout.contains("max-amplification,error,fail"))
        #expect(
            lint(["--preset", "aws-sdk-standard", "--layer", "max-attempts=3", "--fail-on", "warning"]).status == 1)
        #expect(
            lint([
                "--jitter", "full", "--max-attempts", "4", "--layer", "max-attempts=4", "--layer", "max-attempts=4",
                "--fail-on", "none",
            ]).status == 0)
    }

    /// The p99 of a failing request's total wait: exact without jitter (0.1 + 0.2 + 0.4 + 0.8 = 1.5 s),
    /// and the same for the same seed with it.
    @Test func theP99AssertionIsExactWithoutJitterAndSeededWithIt() {
        let exact = lint(["--jitter", "none", "--max-p99-wait", "1.5s", "--fail-on", "none"])
        #expect(exact.status == 0 && exact.run.stdout.contains("p99 total wait 1.5 s against at most 1.5 s"))
        #expect(lint(["--jitter", "none", "--max-p99-wait", "1499ms", "--fail-on", "none"]).status == 1)
        let one = lint(["--jitter", "full", "--max-p99-wait", "5s", "--seed", "7"]).run.stdout
        let two = lint(["--jitter", "full", "--max-p99-wait", "5s", "--seed", "7"]).run.stdout
        #expect(one == two && one.contains("max-p99-wait,error,pass"))
    }

    /// The outage assertions read simulate's own row for the same options: without jitter all 1,000
    /// clients retry in one bucket (peak 1,000), and 5 attempts (1.5 s of waits) never outlast a 2 s
    /// outage while 8 (3.1 s) always do.
    @Test func theOutageAssertionsAreSimulatesNumbers() throws {
        let herd = lint(["--jitter", "none", "--max-peak-retry-load", "999", "--fail-on", "none"])
        #expect(herd.status == 1 && herd.run.stdout.contains("max-peak-retry-load,error,fail,peak retry load 1000 "))
        #expect(lint(["--jitter", "none", "--max-peak-retry-load", "1000", "--fail-on", "none"]).status == 0)
        let spread = lint(["--jitter", "full", "--clients", "2000", "--outage", "3s", "--max-peak-retry-load", "0"])
        let simulate = Invocation(["simulate", "--jitter", "full", "--clients", "2000", "--server", "outage:3s"])
        let peak = try #require(simulate.field("peak_retry_load"))
        #expect(spread.run.stdout.contains("peak retry load \(peak) in a 0.01 s bucket"), "\(spread.run.stdout)")
        let lost = lint(["--jitter", "none", "--min-success-share", "0.5", "--fail-on", "none"])
        #expect(lost.status == 1 && lost.run.stdout.contains("0 of the requests succeed (0 of 1000 clients in a 2s"))
        let through = lint(["--jitter", "none", "--max-attempts", "8", "--min-success-share", "1", "--fail-on", "none"])
        #expect(through.status == 0 && through.run.stdout.contains("min-success-share,error,pass,1 of the requests"))
    }

    @Test(arguments: [
        (["--max-peak-retry-load", "-1"], "--max-peak-retry-load <count>"),
        (["--request-rate", "10"], "--request-rate and --latency go together"),
        (["--latency", "50ms"], "--request-rate and --latency go together"),
        (["--request-rate", "0", "--latency", "50ms"], "--request-rate <number>"),
        (["--request-rate", "inf", "--latency", "50ms"], "--request-rate <number>"),
        (["--request-rate", "10", "--latency", "-1s"], "--latency <duration>"),
        (["--max-peak-retry-load", "1.5"], "--max-peak-retry-load <count>"),
        (["--min-success-share", "1.5"], "--min-success-share <number>"),
        (["--min-success-share", "-0.1"], "--min-success-share <number>"),
        (["--min-success-share", "nan"], "--min-success-share <number>"),
        (["--min-success-share", "0.9", "--clients", "0"], "--clients <count>"),
        (["--min-success-share", "0.9", "--clients", "20000000"], "--clients <count>"),
        (["--min-success-share", "0.9", "--outage", "0s"], "--outage <duration>"),
        (["--fail-on", "warnings"], "--fail-on <severity>"),
        (["--max-amplification", "0"], "--max-amplification <number>"),
        (["--max-amplification", "-1"], "--max-amplification <number>"),
        (["--max-amplification", "nan"], "--max-amplification <number>"),
        (["--max-amplification", "inf"], "--max-amplification <number>"),
        (["--max-p99-wait", "-1s"], "--max-p99-wait <duration>"),
        (["--max-p99-wait", "5"], "--max-p99-wait <duration>"),
        (["--deadline-propagation"], "deadline-propagation"),
    ])
    func badInputIsAUsageError(arguments: [String], named: String) {
        let run = Invocation(["lint"] + arguments)
        #expect(run.status == 64 && run.stdout.isEmpty, "\(arguments): \(run.status)")
        #expect(run.stderr.contains(named), "\(arguments): \(run.stderr)")
    }

    /// The table is an output like any other: onto the config it reads, it is refused.
    @Test func anOutputOntoTheConfigIsRefused() throws {
        let directory = TemporaryDirectory()
        let config = try directory.write("[default]\nmax_attempts = 4\n", to: "config")
        let run = Invocation(["lint", "--config", config, "--output", config])
        #expect(run.status == 64 && run.stderr.contains("it is a file this run reads as an input"), "\(run.stderr)")
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "[default]\nmax_attempts = 4\n")
    }
}
