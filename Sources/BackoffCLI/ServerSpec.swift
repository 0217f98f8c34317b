import EventSimulation
import RetrySimulation

/// The `--server` syntax: `always-fail`, `bernoulli:P`, `outage:DURATION`, `contention`, `capacity`,
/// `trace:FILE`, and each registered component's (`ServerComponents.registered`), e.g.
/// `ratelimit:RATE[:burst=B][:share=F]`.
/// The parameters of contention and capacity (and Retry-After) come from their own options.
enum ServerSpec: ArgumentCodec {
    static let form =
        "always-fail, bernoulli:P with 0 <= P <= 1 (e.g. bernoulli:0.5), outage:DURATION (e.g. outage:2s), "
        + "contention, capacity, trace:FILE (a CSV of time_s,failure_probability), or "
        + ServerComponents.registered.map { $0.form }.joined(separator: ", or ")

    /// The models' names as shell completion offers them, `:` after a name that takes parameters.
    static let completions =
        ["always-fail", "bernoulli:", "outage:", "contention", "capacity", "trace:"]
        + ServerComponents.registered.map { $0.form.hasPrefix("\($0.name):") ? "\($0.name):" : $0.name }

    /// The model `text` names, with the default parameters of the other options'.
    static func parse(_ text: String) throws(InvalidValue) -> ServerModel {
        if text.hasPrefix("trace:") { return .trace(try TraceFile.trace(path: String(text.dropFirst(6)))) }
        if let model = model(text) { return model }
        let name = String(text.prefix { $0 != ":" })
        guard !names.contains(name) else { throw InvalidValue() }
        throw InvalidValue(
            Suggestion.closest(to: name, among: names).map {
                "unknown model '\(name)' (did you mean '\($0)'?)"
            })
    }

    /// The kind of model written as `text` (default parameters), or `nil` when it is not of the
    /// accepted form. The model checks the ranges (`ServerModel.validate()`).
    private static func model(_ text: String) -> ServerModel? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch (parts[0], parts.count) {
        case ("always-fail", 1):
            return .alwaysFail
        case ("bernoulli", 2):
            guard let p = ValueParser.number(parts[1]) else { return nil }  // its range is the model's to check
            return .bernoulli(failureProbability: p)
        case ("outage", 2):
            guard let end = ValueParser.duration(parts[1]) else { return nil }
            return .outage(until: VirtualTime(end))
        case ("contention", 1):
            return .contention(hop: .standard)
        case ("capacity", 1):
            return .capacity(CapacityModel(workers: 1, serviceTime: .deterministic(.nanoseconds(1)), queueLimit: 0))
        case ("trace", 2):
            return (try? TraceFile.trace(path: parts[1])).map { .trace($0) }
        default:
            return ServerComponents.named(parts[0])?.init(parameters: parts.count == 2 ? parts[1] : nil).map {
                .component(AnyServerComponent($0))
            }
        }
    }

    /// The canonical text of a model's kind, as the CSV `server` column shows it.
    static func print(_ model: ServerModel) -> String {
        switch model {
        case .alwaysFail: "always-fail"
        case .bernoulli(let p, _): "bernoulli:\(CSVFormat.number(p))"
        case .outage(let end, _): "outage:\(Duration.nanoseconds(end.nanoseconds).unitText)"
        case .contention: "contention"
        case .capacity: "capacity"
        case .trace(let trace): "trace:\(trace.name)"
        case .component(let component): component.base.specText
        }
    }

    /// The model names, for suggestions.
    static let names =
        ["always-fail", "bernoulli", "outage", "contention", "capacity", "trace"]
        + ServerComponents.registered.map { $0.name }
}
