import EventSimulation

/// A layer behaviour: an adaptive concurrency limit at the layer (`--layer limit=ALGORITHM[:...]`),
/// as Netflix's concurrency-limits computes one and Envoy's adaptive concurrency filter adopted
/// the idea. A request that finds as many calls in flight as the limit is refused at once, a
/// failure its caller may retry (the library's `SimpleLimiter`); each call that ends is a sample
/// that moves the limit. As the library's gRPC server interceptor has it, a call whose deadline
/// passed (cancelled) is a drop, and any other ending, a failure included, a sample of its latency.
///
/// The algorithms, each in its own file with the library's defaults:
/// `aimd[:initial=N][:min=N][:max=N][:backoff=R][:timeout=D]` (``AIMDLimit``),
/// `gradient2[:initial=N][:min=N][:max=N][:smoothing=S][:queue=N][:tolerance=T][:long-window=N]`
/// (``Gradient2Limit``) and `vegas[:initial=N][:max=N][:smoothing=S][:probe=N]` (``VegasLimit``).
public struct ConcurrencyLimit: LayerSetting {
    /// An algorithm and its parameters.
    public enum Algorithm: Hashable, Sendable {
        /// Additive increase, multiplicative decrease on drops (`aimd`).
        case aimd(AIMDLimit)
        /// The gradient of long-term over latest latency (`gradient2`).
        case gradient2(Gradient2Limit)
        /// TCP Vegas' queue estimate from the least RTT (`vegas`).
        case vegas(VegasLimit)

        /// Why the parameters make no limit, or `nil` when they do.
        public var invalidReason: String? {
            switch self {
            case .aimd(let limit): limit.invalidReason
            case .gradient2(let limit): limit.invalidReason
            case .vegas(let limit): limit.invalidReason
            }
        }
    }

    /// The algorithm that moves the limit, with its parameters.
    public let algorithm: Algorithm

    /// The largest limit, minimum, maximum or count a parameter may be.
    public static let largest = 1_000_000_000

    /// Why an algorithm's initial limit and bounds make no limit (1 <= min <= max, initial from 1,
    /// none above ``largest``), or `nil` when they do.
    static func boundsReason(initial: Int, min: Int, max: Int) -> String? {
        if !(1...largest).contains(min) { return "min must be from 1 to \(largest), got \(min)" }
        if !(min...largest).contains(max) { return "max must be from min (\(min)) to \(largest), got \(max)" }
        if !(1...largest).contains(initial) { return "initial must be from 1 to \(largest), got \(initial)" }
        return nil
    }

    /// The limit `algorithm` computes; `nil` for parameters out of range.
    public init?(_ algorithm: Algorithm) {
        guard algorithm.invalidReason == nil else { return nil }
        self.algorithm = algorithm
    }

    public static let key = "limit"
    public static let valueName = "algorithm"
    public static let valueKind = LayerValueKind.text
    public static let form =
        "aimd[:initial=N][:min=N][:max=N][:backoff=R][:timeout=DURATION], gradient2[:initial=N][:min=N][:max=N]"
        + "[:smoothing=S][:queue=N][:tolerance=T][:long-window=N] or vegas[:initial=N][:max=N][:smoothing=S]"
        + "[:probe=N] (Netflix's AIMDLimit, Gradient2Limit and VegasLimit, with the library's defaults; "
        + "1 <= min <= max; 0.5 <= R < 1, 0 < S <= 1, T >= 1), e.g. aimd:min=1, gradient2:min=1 or vegas"
    public static let help =
        "An adaptive concurrency limit (Netflix concurrency-limits' AIMD, Gradient2 or Vegas): requests beyond it are "
        + "refused."
    public static let summary = "an adaptive limit on requests held at once; more are refused"

    public init(parsing text: String) throws(LayerSettingError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        var parameters = try LimitParameters(parts.dropFirst())
        let algorithm: Algorithm
        switch parts[0] {
        case "aimd": algorithm = .aimd(try AIMDLimit(reading: &parameters))
        case "gradient2": algorithm = .gradient2(try Gradient2Limit(reading: &parameters))
        case "vegas": algorithm = .vegas(try VegasLimit(reading: &parameters))
        default: throw LayerSettingError()
        }
        try parameters.finish()
        if let reason = algorithm.invalidReason { throw LayerSettingError(reason) }
        self.algorithm = algorithm
    }

    public var valueText: String {
        switch algorithm {
        case .aimd(let limit): "aimd:" + limit.parameterText
        case .gradient2(let limit): "gradient2:" + limit.parameterText
        case .vegas(let limit): "vegas:" + limit.parameterText
        }
    }

    public func makeBehaviour(seed: UInt64) -> any LayerBehaviour { makeLimiter(seed: seed) }

    /// A new run's limiter in its initial state, which also says its limit (the clients' own,
    /// `simulate --limit`, whose limit the timeline follows).
    func makeLimiter(seed: UInt64) -> any AdaptiveLimiting {
        switch algorithm {
        case .aimd(let limit): Limiter(rule: AIMDLimit.State(limit))
        case .gradient2(let limit): Limiter(rule: Gradient2Limit.State(limit))
        case .vegas(let limit): Limiter(rule: VegasLimit.State(limit, seed: seed))
        }
    }
}

/// What a limit algorithm is to its limiter: a limit, which each sample moves.
protocol LimitRule: Sendable {
    /// The most calls in flight at once, now.
    var limit: Int { get }
    /// A call that took `rtt` nanoseconds ended; `inFlight` were in flight just after it opened,
    /// itself included; `didDrop` when its deadline passed.
    mutating func sample(rtt: Int64, inFlight: Int, didDrop: Bool)
}

/// A limiter as a behaviour whose limit can be read: what the clients' limit needs beyond a layer's.
protocol AdaptiveLimiting: LayerBehaviour {
    /// The most calls in flight at once, now.
    var limit: Int { get }
}

/// The limiter's machine: the calls in flight against the rule's limit, which each ending moves.
struct Limiter<Rule: LimitRule>: AdaptiveLimiting {
    private(set) var rule: Rule
    private(set) var inFlight = 0

    init(rule: Rule) { self.rule = rule }

    var limit: Int { rule.limit }

    func admits(at now: Int64) -> Bool { inFlight < rule.limit }

    mutating func opened(at now: Int64) { inFlight += 1 }

    mutating func closed(at now: Int64, _ call: LayerCall, _ ending: LayerCallEnding) {
        precondition(inFlight > 0, "a call closed that never opened")
        inFlight -= 1
        rule.sample(rtt: now - call.openedAt, inFlight: call.inFlightAtOpen, didDrop: ending == .cancelled)
    }
}

/// An algorithm's `KEY=VALUE` parameters as a spec gives them, each read once by its algorithm.
struct LimitParameters {
    private var values: [Substring: Substring] = [:]

    /// The parameters of `parts`, each `KEY=VALUE` with its key given once.
    init(_ parts: ArraySlice<Substring>) throws(LayerSettingError) {
        for part in parts {
            guard let equals = part.firstIndex(of: "="), values[part[..<equals]] == nil else {
                throw LayerSettingError()
            }
            values[part[..<equals]] = part[part.index(after: equals)...]
        }
    }

    /// A whole number in decimal digits, or `fallback` when `key` is not given.
    mutating func count(_ key: Substring, _ fallback: Int) throws(LayerSettingError) -> Int {
        guard let text = values.removeValue(forKey: key) else { return fallback }
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text) else {
            throw LayerSettingError("\(key) must be a whole number, got '\(text)'")
        }
        return value
    }

    /// A finite decimal number, or `fallback` when `key` is not given.
    mutating func number(_ key: Substring, _ fallback: Double) throws(LayerSettingError) -> Double {
        guard let text = values.removeValue(forKey: key) else { return fallback }
        guard let value = Double(text), value.isFinite, !text.lowercased().hasPrefix("0x") else {
            throw LayerSettingError("\(key) must be a number, got '\(text)'")
        }
        return value
    }

    /// A duration with a unit, or `fallback` when `key` is not given.
    mutating func duration(_ key: Substring, _ fallback: Duration) throws(LayerSettingError) -> Duration {
        guard let text = values.removeValue(forKey: key) else { return fallback }
        guard let value = DurationText.duration(String(text)) else {
            throw LayerSettingError("\(key) must be a duration with a unit, got '\(text)'")
        }
        return value
    }

    /// Throws for a key no algorithm read.
    func finish() throws(LayerSettingError) {
        if let unknown = values.keys.sorted().first { throw LayerSettingError("unknown parameter '\(unknown)'") }
    }
}
