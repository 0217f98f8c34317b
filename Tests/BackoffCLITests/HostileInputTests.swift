import Testing

@testable import BackoffCLI

/// Every numeric option of every table command, every sub-parameter of every spec and both sweep
/// range forms, given the values that trap careless arithmetic: 0, -1, Int64.max and one past it,
/// 2^64, ±inf, nan, 1e±300, and durations at, just past and far past virtual time's horizon. Each
/// case must end in exit 0 with a table, or exit 64 with a message that names the option (or the
/// limit the value runs into) and writes no data. A trap fails the whole test run, which is the point. (These run in process, on
/// small runs: 20 clients, 50 requests.)
@Suite(.slow) struct HostileInputTests {
    static let numbers = [
        "0", "1", "-1", "0.5", "9223372036854775807", "9223372036854775808", "18446744073709551616",
        "inf", "-inf", "nan", "1e300", "1e-300", "-1e300",
    ]
    static let durations = [
        "0ns", "1ns", "4611686018427387904ns", "4611686018427387905ns", "9223372036854775807ns",
        "18446744073709551616ns", "1281023h", "1e300s", "infs", "nans", "-1s", "0.5ns",
    ]

    /// The small run each command gets, so that a value that is accepted runs quickly.
    static let small: [String: [String]] = [
        "waits": ["--runs", "50"], "simulate": ["--clients", "20", "--jobs", "1"], "formula": [], "schedule": [],
    ]

    /// The values an option of `kind` is tried with.
    static func values(for kind: OptionKind) -> [String] { kind == .duration ? durations + ["none"] : numbers }

    /// Runs `arguments` and checks the outcome: a table, or a usage error that names `option`.
    static func check(_ arguments: [String], names option: String) {
        let result = Invocation(arguments)
        switch result.status {
        case 0:
            #expect(!result.stdout.isEmpty, "\(arguments): exit 0 with no table")
        case 64:
            #expect(result.stdout.isEmpty, "\(arguments): a usage error wrote data")
            #expect(result.stderr.hasPrefix("backoff: "), "\(arguments): \(result.stderr)")
            // It names the option, or the option whose limit the value runs into (a value that makes the
            // timeline too long names --bucket; a range of too many points names the grid's limit).
            let named = [option, "virtual time", "Invalid value '", "The grid has"].contains {
                result.stderr.contains($0)
            }
            #expect(named, "\(arguments) names no option: \(result.stderr)")
        default:
            Issue.record("\(arguments): exit \(result.status): \(result.stderr)")
        }
    }

    @Test(arguments: ["schedule", "formula", "waits", "simulate"])
    func everyNumericOptionTakesAHostileValueOrNamesIt(command: String) throws {
        let type = try #require(Commands.table(named: command))
        for spec in type.specs where [.count, .number, .duration].contains(spec.kind) && spec.name != "max-memory" {
            for value in Self.values(for: spec.kind) {
                // A server option needs its server, so that it applies and is read for what it is.
                let server: [String] =
                    switch spec.name {
                    case "hop", "hop-sd": ["--server", "contention"]
                    case "workers", "queue", "reject-retry-after", "degrade-to", "timeout":
                        ["--server", "capacity"]
                    case "replicas": ["--server", "capacity", "--hedge", "on:delay=1ms"]
                    case "degrade-from": ["--server", "capacity", "--degrade-until", "1281023h"]
                    case "degrade-until": ["--server", "capacity", "--degrade-from", "0s"]
                    case "duration": ["--arrivals", "poisson:10"]
                    default: []
                    }
                let extra = command == "simulate" ? server : []
                Self.check(
                    [command] + (Self.small[command] ?? []) + extra + ["--\(spec.name)", value], names: "--\(spec.name)"
                )
            }
        }
    }

    /// Each parameter of each spec, with each hostile value in its place.
    static let specs: [(option: String, template: String, kind: OptionKind)] = [
        ("--budget", "token:max=V", .number), ("--budget", "token:ratio=V", .number),
        ("--budget", "ratio:percent=V", .number),
        ("--budget", "ratio:reserve=V", .number), ("--budget", "ratio:window=V", .duration),
        ("--budget", "concurrency:percent=V", .number), ("--budget", "concurrency:min=V", .count),
        ("--breaker", "on:threshold=V", .number), ("--breaker", "on:min=V", .count),
        ("--breaker", "on:window=V", .duration),
        ("--breaker", "on:open=V", .duration), ("--breaker", "on:probes=V", .count),
        ("--throttle", "adaptive:k=V", .number), ("--throttle", "adaptive:window=V", .duration),
        ("--service", "fixed:V", .duration), ("--service", "exp:V", .duration),
        ("--service", "lognormal:V:1ms", .duration),
        ("--service", "lognormal:1ms:V", .duration), ("--arrivals", "uniform:V", .duration),
        ("--arrivals", "poisson:V", .number),
        ("--retry-trigger", "recovery:V", .duration), ("--server", "bernoulli:V", .number),
        ("--server", "outage:V", .duration),
        ("--jitter", "proportional:V", .number), ("--jitter", "additive:V", .duration),
        ("--hedge", "on:delay=V", .duration), ("--hedge", "on:delay=1ms:max-attempts=V", .count),
        // Round four: every key of --hedge, --layer and the rate limit server.
        ("--hedge", "on:delay=1ms:cancel-delay=V", .duration), ("--hedge", "on:percentile=V", .number),
        ("--hedge", "on:per-try-timeout=V", .duration), ("--hedge", "on:per-try-timeout=1ms:backoff-base=V", .duration),
        ("--hedge", "on:per-try-timeout=1ms:backoff-max=V", .duration),
        ("--hedge", "on:per-try-timeout=1ms:max-attempts=V", .count),
        ("--layer", "max-attempts=V", .count), ("--layer", "base=V", .duration), ("--layer", "cap=V", .duration),
        ("--layer", "multiplier=V", .number), ("--layer", "timeout=V", .duration), ("--layer", "concurrency=V", .count),
        ("--layer", "budget=token:max=V", .number), ("--layer", "breaker=on:threshold=V", .number),
        ("--layer", "hedge-delay=V", .duration), ("--layer", "hedge-percentile=V", .number),
        ("--layer", "hedge-delay=1ms,hedge-max-attempts=V", .count),
        ("--layer", "hedge-delay=1ms,hedge-cancel-delay=V", .duration),
        ("--layer", "hedge-per-try-timeout=V", .duration),
        ("--layer", "hedge-per-try-timeout=1ms,hedge-backoff-base=V", .duration),
        ("--server", "ratelimit:V/s", .number), ("--server", "ratelimit:10/s:burst=V", .count),
        ("--server", "ratelimit:10/s:share=V", .number),
    ]

    @Test func everySpecParameterTakesAHostileValueOrNamesIt() {
        for (option, template, kind) in Self.specs {
            for value in Self.values(for: kind) {
                let text = template.replacingOccurrences(of: "V", with: value)
                let server =
                    ["--service", "--hedge"].contains(option) || template.hasPrefix("hedge-")
                    ? ["--server", "capacity"] : []
                let trigger = option == "--retry-trigger" ? ["--server", "outage:2s"] : []
                Self.check(
                    ["simulate", "--clients", "20", "--jobs", "1"] + server + trigger + [option, text], names: option)
            }
        }
    }

    /// A gRPC service config's `hedgingPolicy` with hostile values in each field (JSON numbers and
    /// protobuf durations as text): a table, or a usage error naming the config.
    @Test func everyHedgingPolicyFieldTakesAHostileValueOrNamesIt() throws {
        let directory = TemporaryDirectory()
        let attempts = ["0", "1", "-1", "2.5", "1e300", "9223372036854775808", "\"3\"", "null"]
        let delays = [
            "\"0s\"", "\"-1s\"", "\"1e300s\"", "\"nans\"", "\"0.000000001s\"", "\"315576000001s\"", "5", "\"\"",
        ]
        var configs: [String] = []
        for value in attempts {
            configs.append(#"{"maxAttempts": \#(value), "hedgingDelay": "0.01s", "nonFatalStatusCodes": []}"#)
        }
        for value in delays {
            configs.append(#"{"maxAttempts": 3, "hedgingDelay": \#(value), "nonFatalStatusCodes": ["UNAVAILABLE"]}"#)
        }
        configs.append(#"{"maxAttempts": 3, "hedgingDelay": "0.01s", "nonFatalStatusCodes": ["NOT_A_CODE"]}"#)
        for (index, policy) in configs.enumerated() {
            let path = try directory.write(
                #"{"methodConfig": [{"name": [{"service": "x"}], "hedgingPolicy": \#(policy)}]}"#, to: "g\(index).json")
            for replicas in ["1", "3"] {
                Self.check(
                    [
                        "simulate", "--clients", "20", "--jobs", "1", "--server", "capacity", "--replicas", replicas,
                        "--grpc-service-config", path,
                    ], names: "--grpc-service-config")
            }
        }
    }

    /// tune's search ranges with hostile ends: each end is tried before the run, or refused.
    @Test func everyTuneSearchRangeTakesHostileEndsOrNamesThem() {
        let ends = [
            "0", "1", "9223372036854775806", "9223372036854775807", "18446744073709551616", "1e300", "-1e300", "nan",
        ]
        for name in ["max-attempts", "multiplier", "base", "requests-per-client"] {
            let unit = name == "base" ? "ns" : ""
            for a in ends {
                for b in ends {
                    Self.check(
                        [
                            "tune", "--clients", "5", "--design", "2", "--objective", "give_ups", "--search",
                            "\(name)=\(a)\(unit)..\(b)\(unit)",
                        ], names: "--")
                }
            }
        }
    }

    /// Both range forms, A..B:STEP and A..B*FACTOR, with hostile ends, steps and factors, on a
    /// duration, a number and a count (a dry run: the grid is expanded and each point validated).
    @Test func everySweepRangeTakesHostileEndsOrNamesThem() {
        let ends = [
            "0", "1", "9223372036854775806", "9223372036854775807", "18446744073709551616", "1e300", "-1e300", "nan",
            "inf",
        ]
        for option in ["--multiplier", "--max-attempts", "--base", "--runs"] {
            let unit = option == "--base" ? "ns" : ""
            for a in ends {
                for b in ends {
                    for step in [":1", ":1e-300", ":9e33", "*2", "*1.0000001", "*1e300", ":0", "*1"] {
                        let range =
                            "\(a)\(unit)..\(b)\(unit)" + (step.hasPrefix(":") && unit == "ns" ? step + "ns" : step)
                        Self.check(["sweep", "waits", "--runs", "10", "--dry-run", option, range], names: option)
                    }
                }
            }
        }
    }
}
