import RetrySimulation

/// `--outlier-detection`: Envoy's ejection of a host that fails in a row (see ``LimitSpec`` for
/// the `name:key=value` syntax); `none` for none, so that a sweep may compare the two.
enum OutlierDetectionSpec: ArgumentCodec {
    static let form =
        "none, or consecutive-5xx[:count=N][:interval=DURATION][:base-ejection-time=DURATION]"
        + "[:max-ejection-percent=P] (Envoy's defaults 5, 10s, 30s, 10), e.g. consecutive-5xx:count=3:interval=1s"

    static let names = ["none", "consecutive-5xx"]

    static func parse(_ text: String) throws(InvalidValue) -> OutlierDetection? {
        let name = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
        let keys =
            name == "consecutive-5xx" ? ["count", "interval", "base-ejection-time", "max-ejection-percent"] : []
        let parameters = try SpecParameters(text, keys: keys)
        switch parameters.name {
        case "none": return nil
        case "consecutive-5xx":
            let defaults = OutlierDetection()
            return OutlierDetection(
                consecutiveFailures: try parameters.count(
                    "count", defaults.consecutiveFailures, in: 1...OutlierDetection.mostFailures),
                interval: try parameters.duration("interval", defaults.interval),
                baseEjectionTime: try parameters.duration("base-ejection-time", defaults.baseEjectionTime),
                maxEjectionPercent: try parameters.number(
                    "max-ejection-percent", defaults.maxEjectionPercent, in: 0...100, "a percent"))
        default:
            throw InvalidValue(LimitSpec.unknownName(parameters.name, among: names))
        }
    }

    /// A detection as `--outlier-detection` takes it: `parse(print(detection))` is `detection`.
    static func print(_ detection: OutlierDetection?) -> String {
        guard let detection else { return "none" }
        return "consecutive-5xx:count=\(detection.consecutiveFailures):interval=\(detection.interval.unitText)"
            + ":base-ejection-time=\(detection.baseEjectionTime.unitText)"
            + ":max-ejection-percent=\(CSVFormat.number(detection.maxEjectionPercent))"
    }
}
