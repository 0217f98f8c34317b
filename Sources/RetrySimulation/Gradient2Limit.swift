import BackoffPolicies

/// Netflix concurrency-limits' `Gradient2Limit`, a latency-based limit: the gradient of a long-term
/// average latency over the latest one, held within [0.5, 1], shrinks the limit while latency
/// rises, and a fixed allowance for queueing grows it while latency holds; each new estimate is
/// smoothed into the old. Defaults are the library's `Gradient2Limit.Builder`'s: initial 20,
/// minimum 20, maximum 200, smoothing 0.2, queue size 4, RTT tolerance 1.5, long window 600.
///
/// ```
/// long ← the long window's average of the samples' RTT (the mean of the first 10, then an
///        exponential average with factor 2 / (window + 1)); if long / rtt > 2, long ← 0.95 long
/// if inflight < limit / 2: no change (the limit is not what holds the requests back)
/// gradient ← max(0.5, min(1, tolerance × long / rtt))
/// limit ← (1 − smoothing) limit + smoothing (gradient × limit + queue), within [min, max]
/// ```
/// The limit is a real number; the limiter admits up to its whole part. A drop does not enter
/// the rule. A call that ends the instant it opens counts 1 ns, where the library would divide
/// by zero.
public struct Gradient2Limit: Hashable, Sendable {
    /// The limit before any sample.
    public let initialLimit: Int
    /// The least the limit may be.
    public let minLimit: Int
    /// The most the limit may be.
    public let maxLimit: Int
    /// How much of each new estimate enters the limit, in (0, 1].
    public let smoothing: Double
    /// How far the limit may grow past the gradient's estimate while latency holds.
    public let queueSize: Int
    /// How much the latest RTT may exceed the long-term one before the limit shrinks, at least 1.
    public let rttTolerance: Double
    /// The long-term average's window, in samples.
    public let longWindow: Int

    /// The limit with the library's defaults for what is not given; ``invalidReason`` checks them.
    /// - Parameters:
    ///   - initialLimit: The limit before any sample.
    ///   - minLimit: The least the limit may be.
    ///   - maxLimit: The most the limit may be.
    ///   - smoothing: How much of each new estimate enters the limit.
    ///   - queueSize: How far the limit may grow past the gradient's estimate.
    ///   - rttTolerance: How much the latest RTT may exceed the long-term one.
    ///   - longWindow: The long-term average's window, in samples.
    public init(
        initialLimit: Int = 20, minLimit: Int = 20, maxLimit: Int = 200, smoothing: Double = 0.2, queueSize: Int = 4,
        rttTolerance: Double = 1.5, longWindow: Int = 600
    ) {
        (self.initialLimit, self.minLimit, self.maxLimit) = (initialLimit, minLimit, maxLimit)
        (self.smoothing, self.queueSize, self.rttTolerance, self.longWindow) =
            (smoothing, queueSize, rttTolerance, longWindow)
    }

    /// Why the parameters make no limit, or `nil` when they do.
    public var invalidReason: String? {
        if let reason = ConcurrencyLimit.boundsReason(initial: initialLimit, min: minLimit, max: maxLimit) {
            return reason
        }
        let largest = ConcurrencyLimit.largest
        if !(smoothing > 0 && smoothing <= 1) { return "smoothing must be above 0 and at most 1, got \(smoothing)" }
        if !(0...largest).contains(queueSize) { return "queue must be from 0 to \(largest), got \(queueSize)" }
        if !(rttTolerance >= 1 && rttTolerance.isFinite) {
            return "tolerance must be a number of at least 1, got \(rttTolerance)"
        }
        if !(1...largest).contains(longWindow) { return "long-window must be from 1 to \(largest), got \(longWindow)" }
        return nil
    }

    /// The limit as it moves, sample by sample.
    struct State: LimitRule {
        let parameters: Gradient2Limit
        /// The estimate, a real number.
        private(set) var estimatedLimit: Double
        /// The long-term RTT (the library's `ExpAvgMeasurement`): the samples' sum and count
        /// through the warm-up of 10, then the exponential average.
        private(set) var longRtt = 0.0
        private var warmupSum = 0.0, warmupCount = 0

        init(_ parameters: Gradient2Limit) {
            self.parameters = parameters
            estimatedLimit = Double(parameters.initialLimit)
        }

        var limit: Int { Int(estimatedLimit) }

        mutating func sample(rtt: Int64, inFlight: Int, didDrop: Bool) {
            let shortRtt = Double(max(rtt, 1))
            if warmupCount < 10 {
                warmupCount += 1
                warmupSum += shortRtt
                longRtt = warmupSum / Double(warmupCount)
            } else {
                let factor = 2 / Double(parameters.longWindow + 1)
                longRtt = longRtt * (1 - factor) + shortRtt * factor
            }
            let long = longRtt
            // Latency back to normal after a long overload: the long-term RTT comes down faster.
            if long / shortRtt > 2 { longRtt *= 0.95 }
            guard Double(inFlight) >= estimatedLimit / 2 else { return }
            let gradient = max(0.5, min(1, parameters.rttTolerance * long / shortRtt))
            let estimate = estimatedLimit * gradient + Double(parameters.queueSize)
            let smoothed = estimatedLimit * (1 - parameters.smoothing) + estimate * parameters.smoothing
            estimatedLimit = max(Double(parameters.minLimit), min(Double(parameters.maxLimit), smoothed))
        }
    }

    /// The parameters a `limit=gradient2:...` spec gives, the library's defaults for the others.
    init(reading parameters: inout LimitParameters) throws(LayerSettingError) {
        let defaults = Gradient2Limit()
        self.init(
            initialLimit: try parameters.count("initial", defaults.initialLimit),
            minLimit: try parameters.count("min", defaults.minLimit),
            maxLimit: try parameters.count("max", defaults.maxLimit),
            smoothing: try parameters.number("smoothing", defaults.smoothing),
            queueSize: try parameters.count("queue", defaults.queueSize),
            rttTolerance: try parameters.number("tolerance", defaults.rttTolerance),
            longWindow: try parameters.count("long-window", defaults.longWindow))
    }

    /// The spec's parameters, every one written.
    var parameterText: String {
        "initial=\(initialLimit):min=\(minLimit):max=\(maxLimit):smoothing=\(smoothing.decimalText)"
            + ":queue=\(queueSize):tolerance=\(rttTolerance.decimalText):long-window=\(longWindow)"
    }
}
