import EventSimulation
import RetrySimulation

/// The `--server` syntax: `always-fail`, `bernoulli:P`, `outage:DURATION`.
enum ServerSpec {
    static let form = "always-fail, bernoulli:P with 0 <= P <= 1 (e.g. bernoulli:0.5), or outage:DURATION (e.g. outage:2s)"

    /// The model written as `text`, or `nil` when it is not of the accepted form.
    static func model(_ text: String) -> ServerModel? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch (parts[0], parts.count) {
        case ("always-fail", 1):
            return .alwaysFail
        case ("bernoulli", 2):
            guard let p = ValueParser.number(parts[1]), (0...1).contains(p) else { return nil }
            return .bernoulli(failureProbability: p)
        case ("outage", 2):
            guard let end = ValueParser.duration(parts[1]) else { return nil }
            return .outage(until: VirtualTime(nanoseconds: Int64(end.nanoseconds)))
        default:
            return nil
        }
    }

    /// The canonical text of a model, as the CSV `server` column shows it.
    static func text(_ model: ServerModel) -> String {
        switch model {
        case .alwaysFail: "always-fail"
        case .bernoulli(let p): "bernoulli:\(CSVFormat.number(p))"
        case .outage(let end): "outage:\(DurationText.text(.nanoseconds(end.nanoseconds)))"
        }
    }

    /// The model names, for suggestions.
    static let names = ["always-fail", "bernoulli", "outage"]
}
