import EventSimulation
import RetrySimulation

/// `--host-fault`: how many of the capacity server's replicas misbehave, and how (see
/// ``LimitSpec`` for the `name:key=value` syntax, here after the count). A slow host's
/// `service=` takes `--service`'s form, colons and all, so it comes last.
enum HostFaultSpec: ArgumentCodec {
    static let form =
        "COUNT:KIND with COUNT hosts of --replicas and KIND fail-fast[:latency=DURATION], failing:p=P, "
        + "slow:service=DIST (--service's form) or down:until=DURATION[:from=DURATION], e.g. 1:fail-fast:latency=1ms"

    static let kinds = ["fail-fast", "failing", "slow", "down"]

    static func parse(_ text: String) throws(InvalidValue) -> FaultyHosts {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let count = ValueParser.integer(parts[0]), count >= 1 else {
            throw InvalidValue(
                "'\(parts[0].quotedInMessage)' is not a count of hosts: the spec starts with a whole number >= 1, "
                    + "the hosts that misbehave (at most --replicas)")
        }
        guard parts.count == 2 else { throw InvalidValue("the spec names no kind after the count") }
        return FaultyHosts(count: count, fault: try fault(parts[1]))
    }

    /// A fault as it follows the count.
    private static func fault(_ text: String) throws(InvalidValue) -> HostFault {
        if text.hasPrefix("slow:service=") {
            let service = String(text.dropFirst("slow:service=".count))
            guard let time = ServiceTimeSpec.time(service), HostFault.slow(time).isValid else {
                throw InvalidValue(
                    "'service=\(service.quotedInMessage)': a slow host's service takes \(ServiceTimeSpec.form)")
            }
            return .slow(time)
        }
        let name = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
        let keys: [String] =
            switch name {
            case "fail-fast": ["latency"]
            case "failing": ["p"]
            case "down": ["from", "until"]
            default: []
            }
        let parameters = try SpecParameters(text, keys: keys)
        switch parameters.name {
        case "fail-fast":
            return .failFast(
                latency: try parameters.nonNegativeDuration(
                    "latency", HostFault.defaultLatency, "how long the host takes to fail"))
        case "failing":
            guard parameters[given: "p"] != nil else {
                throw InvalidValue("'failing' needs p=P, the share of its answers that fail, e.g. failing:p=0.5")
            }
            return .failing(probability: try parameters.number("p", 0, in: 0...1, "a probability"))
        case "slow":
            throw InvalidValue("'slow' needs service=DIST, its own service time (\(ServiceTimeSpec.form))")
        case "down":
            let start = try parameters.nonNegativeDuration("from", .zero, "when the host goes down")
            let end = try parameters.requiredDuration("until", "when the host is up again")
            guard end > start else {
                throw InvalidValue(
                    "'until=\(end.unitText)' is not after 'from=\(start.unitText)': a host is down in [from, until)")
            }
            return .down(start: VirtualTime(start), end: VirtualTime(end))
        default:
            throw InvalidValue(LimitSpec.unknownName(parameters.name, among: kinds))
        }
    }

    /// Faulty hosts as `--host-fault` takes them: `parse(print(hosts))` is `hosts`.
    static func print(_ hosts: FaultyHosts) -> String { "\(hosts.count):\(print(hosts.fault))" }

    /// A fault as it follows the count.
    static func print(_ fault: HostFault) -> String {
        switch fault {
        case .failFast(let latency): "fail-fast:latency=\(latency.unitText)"
        case .failing(let probability): "failing:p=\(CSVFormat.number(probability))"
        case .slow(let time): "slow:service=\(ServiceTimeSpec.print(time))"
        case .down(let start, let end):
            "down:from=\(Duration.nanoseconds(start.nanoseconds).unitText):until="
                + Duration.nanoseconds(end.nanoseconds).unitText
        }
    }
}
