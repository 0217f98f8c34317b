import RetrySimulation

/// The scenario's parts that the `simulate` table writes as text and `check` reads back to recompute
/// its closed forms: the arrivals, the capacity server's service time and the layers' attempts.
/// Each is written in the form its option takes, so a column can be pasted back onto a command line.
enum ScenarioText {
    /// `burst`, `uniform:WINDOW` or `poisson:RATE` (as `--arrivals` takes them; a Poisson
    /// process's duration is `--duration`'s, which no closed form depends on).
    static func arrivals(_ arrivals: Arrivals) -> String {
        switch arrivals {
        case .burst: "burst"
        case .uniform(let window): "uniform:\(window.unitText)"
        case .poisson(let rate, _): "poisson:\(CSVFormat.number(rate))"
        }
    }

    /// The arrivals of an `arrivals` column (a Poisson process lasting `duration`), `nil` when it is none.
    static func arrivals(_ text: String, duration: Duration = .seconds(1)) -> Arrivals? {
        switch ScenarioOptions.ArrivalsText(text) {
        case .burst: .burst
        case .uniform(let window): .uniform(window: window)
        case .poisson(let rate): .poisson(ratePerSecond: rate, duration: duration)
        case nil: nil
        }
    }

    /// A service time as `--service` takes it: `fixed:D`, `exp:MEAN`, `lognormal:MEAN:SD` or
    /// `mixture:W@DIST;...`.
    static func service(_ time: ServiceTime) -> String {
        switch time {
        case .deterministic(let d): "fixed:\(d.unitText)"
        case .exponential(let mean): "exp:\(mean.unitText)"
        case .lognormal(let mean, let sd): "lognormal:\(mean.unitText):\(sd.unitText)"
        case .mixture(let components):
            "mixture:"
                + components.map { "\(CSVFormat.number($0.weight))@\(service($0.time))" }.joined(separator: ";")
        }
    }

    /// The attempts of a `layer_attempts` column, `nil` when a part is not a whole number >= 1.
    static func layerAttempts(_ text: String) -> [Int]? {
        guard !text.isEmpty else { return [] }
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        let counts = parts.compactMap { ValueParser.integer(String($0)) }.filter { $0 >= 1 }
        return counts.count == parts.count ? counts : nil
    }
}
