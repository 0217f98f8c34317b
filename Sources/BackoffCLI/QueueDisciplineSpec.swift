import RetrySimulation

/// `--queue-discipline`: the order in which the capacity server's free worker takes queued
/// attempts, and those it sheds (see ``LimitSpec`` for the `name:key=value` syntax).
enum QueueDisciplineSpec: ArgumentCodec {
    static let form =
        "fifo, lifo, adaptive-lifo[:interval=DURATION] or codel[:target=DURATION][:interval=DURATION], "
        + "e.g. codel:target=5ms:interval=100ms"

    static let names = ["fifo", "lifo", "adaptive-lifo", "codel"]

    static func parse(_ text: String) throws(InvalidValue) -> QueueDiscipline {
        let name = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
        let keys: [String] =
            switch name {
            case "adaptive-lifo": ["interval"]
            case "codel": ["target", "interval"]
            default: []
            }
        let parameters = try SpecParameters(text, keys: keys)
        switch parameters.name {
        case "fifo": return .fifo
        case "lifo": return .lifo
        case "adaptive-lifo":
            return .adaptiveLIFO(interval: try parameters.duration("interval", QueueDiscipline.defaultInterval))
        case "codel":
            let target = try parameters.duration("target", QueueDiscipline.defaultTarget)
            let interval = try parameters.duration("interval", QueueDiscipline.defaultInterval)
            guard target <= interval else {
                func named(_ key: String, _ value: Duration) -> String {
                    parameters[given: key] == nil
                        ? "the default \(key) \(value.unitText)" : "'\(key)=\(value.unitText)'"
                }
                throw InvalidValue(
                    "\(named("target", target)) is longer than \(named("interval", interval)): codel's target (the "
                        + "wait a standing queue allows) takes at most its interval (the wait it allows otherwise)")
            }
            return .controlledDelay(target: target, interval: interval)
        default:
            throw InvalidValue(LimitSpec.unknownName(parameters.name, among: names))
        }
    }

    /// A discipline as `--queue-discipline` takes it: `parse(print(discipline))` is `discipline`.
    static func print(_ discipline: QueueDiscipline) -> String {
        switch discipline {
        case .fifo: "fifo"
        case .lifo: "lifo"
        case .adaptiveLIFO(let interval): "adaptive-lifo:interval=\(interval.unitText)"
        case .controlledDelay(let target, let interval):
            "codel:target=\(target.unitText):interval=\(interval.unitText)"
        }
    }
}
