import Foundation
import Retrying

/// The parsers under fuzzing, one entry point per target, shared by the libFuzzer harness
/// (Tests/Fuzz, `scripts/fuzz`) and the unit test that replays the seed corpus and every crash the
/// fuzzer has found. Each input may be refused with an error; none may trap, hang or allocate
/// without bound. Nothing here writes a file or runs a simulation.
enum FuzzTargets {
    static let names = ["values", "specs", "command-line", "csv", "retry-after", "grpc-config"]

    /// Feeds `data` to the target `name`.
    static func run(_ name: String, _ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        switch name {
        case "values": values(text)
        case "specs": specs(text)
        case "command-line": commandLine(text)
        case "csv": csv(text)
        case "retry-after": _ = try? RetryAfterHeader.delay(text, now: 1_764_547_200)
        case "grpc-config":
            _ = try? GrpcServiceConfig(json: data, method: nil)
            _ = try? GrpcServiceConfig(json: data, method: "helloworld.Greeter/SayHello")
        default: preconditionFailure("no fuzz target '\(name)'")
        }
    }

    /// Durations, counts, numbers, lists, sizes, jitter names, and the ranges of a sweep.
    private static func values(_ text: String) {
        _ = ValueParser.duration(text)
        _ = ValueParser.number(text)
        _ = ValueParser.integer(text)
        _ = ValueParser.list(text)
        _ = MemoryLimit.size(text)
        _ = try? PolicyOptions.parseJitter(text)
        for option in [PolicyOptions.base.spec, PolicyOptions.multiplier.spec, PolicyOptions.maxAttempts.spec,
                       PolicyOptions.jitter(default: "none").spec, ScenarioOptions.server.spec] {
            // At most 10,000 values: an input of a few bytes ("3..1957090:1") may ask for millions,
            // linear work that the sanitised debug build takes longer than the hang limit over.
            _ = try? SweepAxis(spec: option, text: text, command: "sweep", limit: 10_000)
        }
    }

    /// The server, arrival, service, budget, breaker and throttle specs, through their options.
    private static func specs(_ text: String) {
        _ = ServerSpec.model(text)
        _ = LimitSpec.budget(text)
        _ = LimitSpec.breaker(text)
        _ = LimitSpec.throttle(text)
        _ = try? ScenarioOptions.arrivals.parse(text)
        _ = try? ScenarioOptions.service.parse(text)
        _ = try? ScenarioOptions.retryTrigger.parse(text)
        _ = try? PolicyOptions.cap.parse(text)
        _ = try? PolicyOptions.maxElapsed.parse(text)
    }

    /// A whole command line, one argument per line: lexed, parsed and validated into its command,
    /// whose memory is estimated; never run.
    private static func commandLine(_ text: String) {
        let arguments = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let tokens = ArgumentLexer.tokens(arguments)
        guard let first = tokens.first, case .word(let name) = first.kind, let type = Commands.table(named: name) else { return }
        func build<Command: BackoffCommand>(_ type: Command.Type) {
            guard let options = try? ParsedOptions(command: name, specs: type.specs, tokens: tokens.dropFirst()),
                  let command = try? Command(options) else { return }
            _ = command.memoryEstimate.bytes
            _ = command.header
        }
        build(type)
    }

    /// A table as `check` and `--resume` read it, the policy each row describes, and the table as
    /// an incident trace of failures and of capacity.
    private static func csv(_ text: String) {
        let table = CSVReader(text: text)
        for record in table.records.prefix(1_000) { _ = try? RowPolicy.policy(record, in: table) }
        _ = try? TraceFile.trace(text: text, name: "fuzz.csv")
        _ = try? TraceFile.capacityProfile(text: text)
    }
}
