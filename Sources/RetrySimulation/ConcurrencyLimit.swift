import EventSimulation

/// A layer behaviour: an adaptive concurrency limit at the layer (`--layer limit=aimd[:...]`), as
/// Netflix's concurrency-limits computes one and Envoy's adaptive concurrency filter adopted it. A
/// request that finds as many calls in flight as the limit is refused at once, a failure its caller
/// may retry (the library's `SimpleLimiter`); each call that ends is a sample that moves the limit.
/// As the library's gRPC server interceptor has it, a call whose deadline passed (cancelled) is a
/// drop, and any other ending, a failure included, is a sample of its latency.
///
/// The algorithm is ``AIMDLimit``: `limit=aimd[:initial=N][:min=N][:max=N][:backoff=R][:timeout=D]`.
public struct ConcurrencyLimit: LayerSetting {
    /// The algorithm and its parameters.
    public let algorithm: AIMDLimit

    /// The limit `algorithm` computes; `nil` for parameters out of range.
    public init?(_ algorithm: AIMDLimit) {
        guard algorithm.invalidReason == nil else { return nil }
        self.algorithm = algorithm
    }

    public static let key = "limit"
    public static let valueName = "algorithm"
    public static let valueKind = LayerValueKind.text
    public static let form =
        "aimd[:initial=N][:min=N][:max=N][:backoff=R][:timeout=DURATION] (Netflix's AIMDLimit: defaults 20, 20, "
        + "200, 0.9 and 5s; 1 <= min <= max, 0.5 <= R < 1), e.g. aimd:min=1:max=50"
    public static let help =
        "An adaptive concurrency limit (Netflix concurrency-limits' AIMD): requests beyond it are refused."
    public static let summary = "an adaptive limit on requests held at once; more are refused"

    public init(parsing text: String) throws(LayerSettingError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.first == "aimd" else { throw LayerSettingError() }
        var values: [Substring: Substring] = [:]
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "="), values[part[..<equals]] == nil else {
                throw LayerSettingError()
            }
            values[part[..<equals]] = part[part.index(after: equals)...]
        }
        let defaults = AIMDLimit()
        func count(_ key: Substring, _ fallback: Int) throws(LayerSettingError) -> Int {
            guard let text = values.removeValue(forKey: key) else { return fallback }
            guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text) else {
                throw LayerSettingError("\(key) must be a whole number, got '\(text)'")
            }
            return value
        }
        let (initial, least, most) = (
            try count("initial", defaults.initialLimit), try count("min", defaults.minLimit),
            try count("max", defaults.maxLimit)
        )
        var backoff = defaults.backoffRatio
        if let text = values.removeValue(forKey: "backoff") {
            guard let value = Double(text), value.isFinite else {
                throw LayerSettingError("backoff must be a number, got '\(text)'")
            }
            backoff = value
        }
        var timeout = Duration.nanoseconds(defaults.timeout)
        if let text = values.removeValue(forKey: "timeout") {
            guard let value = DurationText.duration(String(text)) else {
                throw LayerSettingError("timeout must be a duration with a unit, got '\(text)'")
            }
            timeout = value
        }
        if let unknown = values.keys.sorted().first { throw LayerSettingError("unknown parameter '\(unknown)'") }
        let algorithm = AIMDLimit(
            initialLimit: initial, minLimit: least, maxLimit: most, backoffRatio: backoff, timeout: timeout)
        if let reason = algorithm.invalidReason { throw LayerSettingError(reason) }
        self.algorithm = algorithm
    }

    public var valueText: String {
        let a = algorithm
        return
            "aimd:initial=\(a.initialLimit):min=\(a.minLimit):max=\(a.maxLimit):backoff=\(a.backoffRatio.decimalText)"
            + ":timeout=\(Duration.nanoseconds(a.timeout).unitText)"
    }

    public func makeBehaviour() -> any LayerBehaviour { Limiter(algorithm: algorithm) }

    /// The limiter's machine: the calls in flight against the limit, which each ending moves.
    struct Limiter: LayerBehaviour {
        let algorithm: AIMDLimit
        private(set) var limit: Int
        private(set) var inFlight = 0

        init(algorithm: AIMDLimit) {
            self.algorithm = algorithm
            limit = algorithm.initialLimit
        }

        func admits(at now: Int64) -> Bool { inFlight < limit }

        mutating func opened(at now: Int64) { inFlight += 1 }

        mutating func closed(at now: Int64, _ call: LayerCall, _ ending: LayerCallEnding) {
            precondition(inFlight > 0, "a call closed that never opened")
            inFlight -= 1
            limit = algorithm.update(
                limit: limit, rtt: now - call.openedAt, inFlight: call.inFlightAtOpen, didDrop: ending == .cancelled)
        }
    }
}
