import BackoffPolicies
import ConfigFiles
import Foundation
import Retrying

@testable import BackoffCLI

/// The parsers under fuzzing, one entry point per target, shared by the libFuzzer harness
/// (Tests/Fuzz, `scripts/fuzz`) and the unit test that replays the seed corpus and every crash the
/// fuzzer has found (`Tests/BackoffCLITests/FuzzTargets.swift` is a link to this file, so the
/// targets are test code in both places and not part of the shipped library). Each input may be refused with an error; none may trap, hang or allocate
/// without bound. Nothing here writes a file or runs a simulation.
///
/// ``outcome(_:_:)`` says what each parser of a target made of an input, one line per input: the
/// value it parsed or the error it gave. The corpus test compares it with the outcome committed in
/// `Tests/Fuzz/Expected/TARGET.tsv`, so a replayed input checks a result, not only the absence of
/// a trap.
enum FuzzTargets {
    static let names = [
        "values", "specs", "command-line", "csv", "retry-after", "grpc-config", "aws-config", "table-formats",
        "envoy-config",
    ]

    /// Feeds `data` to the target `name` (the fuzzer's entry point: the outcome is dropped).
    static func run(_ name: String, _ data: Data) { _ = outcome(name, data) }

    /// What the target `name` made of `data`: each parser's result, `|`-separated, on one line.
    static func outcome(_ name: String, _ data: Data) -> String {
        let text = String(decoding: data, as: UTF8.self)
        let parts: [String]
        switch name {
        case "values": parts = values(text)
        case "specs": parts = specs(text)
        case "command-line": parts = [commandLine(text)]
        case "csv": parts = csv(text)
        case "retry-after":
            parts = [
                describe { () throws(RetryAfterHeader.Malformed) in try RetryAfterHeader.delay(text, now: 1_764_547_200)
                }
            ]
        case "grpc-config":
            parts = [nil, "helloworld.Greeter/SayHello"].map { method in
                describe { () throws(GrpcServiceConfig.Invalid) in
                    let preset = try GrpcServiceConfig(json: data, method: method).preset
                    return PolicyStart.settable.compactMap { option in
                        option.presetText?(preset).map { "\(option.name)=\($0)" }
                    }
                    .joined(separator: " ")
                }
            }
        case "aws-config":
            // The default profile and a named one, as `--config` reads them.
            parts = [nil, "a"].map { profile in
                describe { () throws(AWSSharedConfig.Invalid) in
                    let config = try AWSSharedConfig(bytes: data, profile: profile)
                    return "\(config.preset.name) max-attempts=\(config.maxAttempts) other=\(config.otherKeys.count)"
                }
            }
        case "table-formats": parts = tableFormats(text)
        case "envoy-config":
            // The file as YAML, then its only route and the route named "a", as `--config` reads them.
            let documents = describe { () throws(YAMLNode.Malformed) in try YAMLNode.documents(Array(data)).count }
            parts =
                ["documents=\(documents)"]
                + [nil, "a"].map { route in
                    describe { () throws(EnvoyRoute.Invalid) in
                        guard let document = try? YAMLNode.documents(Array(data)).first,
                            EnvoyRoute.recognises(document)
                        else { return "not envoy" }
                        let envoy = try EnvoyRoute(document, route: route)
                        let policy = envoy.preset.policy
                        return "\(envoy.name) attempts=\(policy.maxAttempts) base=\(policy.base) "
                            + "warnings=\(envoy.warnings.count)"
                    }
                }
        default: preconditionFailure("no fuzz target '\(name)'")
        }
        return parts.joined(separator: " | ")
    }

    /// Durations, counts, numbers, lists, sizes, jitter names, and the ranges of a sweep.
    private static func values(_ text: String) -> [String] {
        var parts = [
            "duration=\(show(ValueParser.duration(text)))", "number=\(show(ValueParser.number(text)))",
            "integer=\(show(ValueParser.integer(text)))", "list=\(show(ValueParser.list(text)?.count))",
            "size=\(show(MemoryLimit.size(text)))",
            "jitter=" + describe { () throws(InvalidValue) in try JitterSpec.parse(text) },
        ]
        for option in [
            PolicyOptions.base.spec, PolicyOptions.multiplier.spec, PolicyOptions.maxAttempts.spec,
            PolicyOptions.jitter(default: "none").spec, ScenarioOptions.server.spec,
        ] {
            // At most 10,000 values: an input of a few bytes ("3..1957090:1") may ask for millions,
            // linear work that the sanitised debug build takes longer than the hang limit over.
            let axis = describe { () throws(CommandLineError) in
                let values = try SweepAxis(spec: option, text: text, command: "sweep", limit: 10_000).values
                return "\(values.count) values, last \(values.last ?? "")"
            }
            parts.append("axis \(option.name)=\(axis)")
        }
        return parts
    }

    /// The server, arrival, service, budget, breaker, throttle and hedge specs, through their options;
    /// a limit spec's value is shown in its printed form (which the round-trip tests read back).
    private static func specs(_ text: String) -> [String] {
        [
            "server=\(show(ServerSpec.value(text).map(ServerSpec.print)))",
            "budget=\(show(BudgetSpec.value(text).map(BudgetSpec.print)))",
            "breaker=\(show(BreakerSpec.value(text).map(BreakerSpec.print)))",
            "throttle=\(show(ThrottleSpec.value(text).map(ThrottleSpec.print)))",
            "hedge=" + describe { () throws(InvalidValue) in HedgeSpec.print(try HedgeSpec.parse(text)) },
            "arrivals=" + describe { () throws(InvalidValue) in try ScenarioOptions.arrivals.parse(text) },
            "service=" + describe { () throws(InvalidValue) in try ScenarioOptions.service.parse(text) },
            "trigger=" + describe { () throws(InvalidValue) in try ScenarioOptions.retryTrigger.parse(text) },
            "cap=" + describe { () throws(InvalidValue) in try PolicyOptions.cap.parse(text) },
            "max-elapsed=" + describe { () throws(InvalidValue) in try PolicyOptions.maxElapsed.parse(text) },
        ]
    }

    /// A whole command line, one argument per line: lexed, parsed and validated into its command
    /// (a table command, whose memory is estimated, or `tune`, whose every candidate end is
    /// checked); never run. (A sweep validates every point of its grid, up to ten million: too slow
    /// for the fuzzer's hang limit, so its ranges are fuzzed in `values`.)
    private static func commandLine(_ text: String) -> String {
        let arguments = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let tokens = ArgumentLexer.tokens(arguments)
        guard let first = tokens.first, case .word(let name) = first.kind else { return "no command" }
        if name == TuneCommand.name {
            return describe { () throws(CommandLineError) in
                "tune, \(try TuneCommand(tokens: tokens.dropFirst()).searched.space.names.count) dimensions"
            }
        }
        guard let type = Commands.table(named: name) else { return "not a table command" }
        func build<Command: BackoffCommand>(_ type: Command.Type) -> String {
            describe { () throws(CommandLineError) in
                let options = try ParsedOptions(command: name, specs: type.specs, tokens: tokens.dropFirst())
                let command = try Command(options)
                _ = command.memoryEstimate.bytes  // estimated, not shown: it depends on the machine's cores
                return "\(name), \(command.header.count) columns"
            }
        }
        return build(type)
    }

    /// A table as `check` and `--resume` read it, the policy each row describes, and the table as
    /// an incident trace of failures and of capacity, and as a log for `backoff limiter`.
    private static func csv(_ text: String) -> [String] {
        let table = CSVReader(text: text)
        let policies = table.records.prefix(1_000).map { record in
            describe { () throws(RowPolicy.Problem) in
                try RowPolicy.policy(record, in: table).map { "\($0.jitter.name)" } ?? "none"
            }
        }
        return [
            "records=\(table.records.count)", "policies=[\(policies.joined(separator: "; "))]",
            "trace="
                + describe { () throws(InvalidValue) in
                    "\(try TraceFile.trace(text: text, name: "fuzz.csv").steps.count) steps"
                },
            "capacity="
                + describe { () throws(InvalidValue) in "\(try TraceFile.capacityProfile(text: text).steps.count) steps"
                },
            "limiter="
                + describe { () throws(InvalidValue) in
                    let states = LimiterCommand.replay(try LimiterEvents.parse(text))
                    return "\(states.count) states, fill rate \(states.last.map { "\($0.limiter.fillRate)" } ?? "-")"
                },
        ]
    }

    /// `--columns` (the first line) picking from a table (the rest, CSV; rows of another length
    /// dropped), printed in every `--format`. Traps when a format breaks its promise: a JSON line
    /// that does not parse or has another member count, a `table` line wider than the terminal, a
    /// Markdown table with another row count.
    private static func tableFormats(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let reader = CSVReader(text: lines.count > 1 ? String(lines[1]) : "")
        var table = CSVTable(header: reader.header)
        for record in reader.records.prefix(200) where record.count == reader.header.count { table.append(record) }
        let picked = describe { () throws(InvalidValue) in
            try ColumnSelection.parse(String(lines[0])).positions(in: table.header, parameters: []).count
        }
        let json = table.jsonLines(textual: [])
        for line in json.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            precondition(object != nil, "not a JSON object: \(line)")
            precondition(object!.count == Set(table.header).count, "members: \(line)")
        }
        let width = TableOutput.minimumWidth
        let aligned = table.aligned(width: width, textual: [])
        let widest = aligned.split(separator: "\n").map(\.count).max() ?? 0
        precondition(widest <= width, "a line of \(widest) columns in a table \(width) wide")
        let markdown = table.markdown(textual: [])
        precondition(markdown.split(separator: "\n", omittingEmptySubsequences: false).count == table.rows.count + 3)
        return ["columns=\(picked)", "json=\(table.rows.count) lines", "table=\(widest) wide"]
    }

    /// `-` for no value, else the value.
    private static func show(_ value: (some Any)?) -> String { value.map { "\($0)" } ?? "-" }

    /// The value `body` returns, or `refused: ` and its error's message.
    private static func describe<Value, Failure: Error>(_ body: () throws(Failure) -> Value) -> String {
        do {
            return "\(try body())"
        } catch let error as InvalidValue {
            return "refused: \(error.detail ?? "not of the form")"
        } catch let error as CommandLineError {
            switch error {
            case .help: return "help"
            case .usage(let message, _), .failure(let message): return "refused: \(message)"
            }
        } catch {
            return "refused: \(error)"
        }
    }
}
