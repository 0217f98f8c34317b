import RetrySimulation

/// `--arrivals`: when sessions start, as the option, the `arrivals` column and `check` take it.
/// A Poisson process's duration is `--duration`'s, so the value is the process without it.
enum ArrivalsSpec: ArgumentCodec {
    /// An arrival process as written: `burst`, `uniform:WINDOW` or `poisson:RATE`.
    enum Process: Hashable, Sendable {
        case burst
        case uniform(window: Duration)
        case poisson(ratePerSecond: Double)

        /// The process of `arrivals`, without a Poisson process's duration.
        init(_ arrivals: Arrivals) {
            switch arrivals {
            case .burst: self = .burst
            case .uniform(let window): self = .uniform(window: window)
            case .poisson(let rate, _): self = .poisson(ratePerSecond: rate)
            }
        }

        /// The arrivals, a Poisson process lasting `duration`.
        func arrivals(duration: Duration) -> Arrivals {
            switch self {
            case .burst: .burst
            case .uniform(let window): .uniform(window: window)
            case .poisson(let rate): .poisson(ratePerSecond: rate, duration: duration)
            }
        }
    }

    static let form = "burst, uniform:DURATION (e.g. uniform:1s) or poisson:RATE with RATE > 0 (e.g. poisson:500)"

    static func parse(_ text: String) throws(InvalidValue) -> Process {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("burst", 1): return .burst
        case ("uniform", 2):
            guard let window = ValueParser.duration(parts[1]) else { throw InvalidValue() }
            return .uniform(window: window)
        case ("poisson", 2):
            guard let rate = ValueParser.number(parts[1]) else { throw InvalidValue() }
            return .poisson(ratePerSecond: rate)
        default: throw InvalidValue()
        }
    }

    static func print(_ process: Process) -> String {
        switch process {
        case .burst: "burst"
        case .uniform(let window): "uniform:\(window.unitText)"
        case .poisson(let rate): "poisson:\(CSVFormat.number(rate))"
        }
    }
}
