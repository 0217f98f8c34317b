import BackoffPolicies

/// Netflix concurrency-limits' `AIMDLimit`, a loss-based limit: it grows by one after a sample
/// taken while the limit was at least half used, and shrinks by the backoff ratio after a drop
/// (or a sample slower than the timeout), within its minimum and maximum. Its defaults are the
/// library's `AIMDLimit.Builder`'s: initial 20, minimum 20, maximum 200, backoff ratio 0.9 (the
/// library accepts 0.5 to 1, 1 excluded), timeout 5 s.
///
/// ```
/// drop, or rtt > timeout     limit ← ⌊limit × backoff⌋
/// else inflight × 2 ≥ limit  limit ← limit + 1
/// then                       limit ← min(max, max(min, limit))
/// ```
/// `inflight` is the count in flight just after the sampled request started, itself included (the
/// library's `AbstractLimiter` passes it so).
public struct AIMDLimit: Hashable, Sendable {
    /// The limit before any sample.
    public let initialLimit: Int
    /// The least the limit may be.
    public let minLimit: Int
    /// The most the limit may be.
    public let maxLimit: Int
    /// What a drop multiplies the limit by, in [0.5, 1).
    public let backoffRatio: Double
    /// A sample slower than this, in nanoseconds, counts as a drop.
    public let timeout: Int64

    /// The limit with the library's defaults for what is not given; ``invalidReason`` checks them.
    /// - Parameters:
    ///   - initialLimit: The limit before any sample.
    ///   - minLimit: The least the limit may be.
    ///   - maxLimit: The most the limit may be.
    ///   - backoffRatio: What a drop multiplies the limit by.
    ///   - timeout: A sample slower than this counts as a drop.
    public init(
        initialLimit: Int = 20, minLimit: Int = 20, maxLimit: Int = 200, backoffRatio: Double = 0.9,
        timeout: Duration = .seconds(5)
    ) {
        (self.initialLimit, self.minLimit, self.maxLimit, self.backoffRatio) =
            (initialLimit, minLimit, maxLimit, backoffRatio)
        self.timeout = timeout.wholeNanoseconds
    }

    /// Why the parameters make no limit, or `nil` when they do.
    public var invalidReason: String? {
        if let reason = ConcurrencyLimit.boundsReason(initial: initialLimit, min: minLimit, max: maxLimit) {
            return reason
        }
        if !(backoffRatio >= 0.5 && backoffRatio < 1) {
            return "backoff must be at least 0.5 and below 1, got \(backoffRatio)"
        }
        if timeout <= 0 { return "timeout must be greater than 0" }
        return nil
    }

    /// The limit after a sample: a request that took `rtt` nanoseconds, with `inFlight` in flight
    /// when it started, dropped or not. The library's `AIMDLimit._update`.
    public func update(limit: Int, rtt: Int64, inFlight: Int, didDrop: Bool) -> Int {
        var limit = limit
        if didDrop || rtt > timeout {
            limit = Int((Double(limit) * backoffRatio).rounded(.towardZero))
        } else if inFlight * 2 >= limit {
            limit += 1
        }
        return min(maxLimit, max(minLimit, limit))
    }

    /// The parameters a `limit=aimd:...` spec gives, the library's defaults for the others.
    init(reading parameters: inout LimitParameters) throws(LayerSettingError) {
        let defaults = AIMDLimit()
        self.init(
            initialLimit: try parameters.count("initial", defaults.initialLimit),
            minLimit: try parameters.count("min", defaults.minLimit),
            maxLimit: try parameters.count("max", defaults.maxLimit),
            backoffRatio: try parameters.number("backoff", defaults.backoffRatio),
            timeout: try parameters.duration("timeout", .nanoseconds(defaults.timeout)))
    }

    /// The spec's parameters, every one written.
    var parameterText: String {
        "initial=\(initialLimit):min=\(minLimit):max=\(maxLimit):backoff=\(backoffRatio.decimalText)"
            + ":timeout=\(Duration.nanoseconds(timeout).unitText)"
    }

    /// The limit as it moves, sample by sample.
    struct State: LimitRule {
        let parameters: AIMDLimit
        private(set) var limit: Int

        init(_ parameters: AIMDLimit) {
            self.parameters = parameters
            limit = parameters.initialLimit
        }

        mutating func sample(rtt: Int64, inFlight: Int, didDrop: Bool) {
            limit = parameters.update(limit: limit, rtt: rtt, inFlight: inFlight, didDrop: didDrop)
        }
    }
}
