import BackoffPolicies
import Stochastics

/// Netflix concurrency-limits' `VegasLimit`, after TCP Vegas: the queue a request met is estimated
/// from its RTT against the no-load RTT (the least seen since the last probe), as
/// ⌈limit × (1 − rtt_noload / rtt)⌉, and the limit grows while that queue is small and shrinks
/// while it is large, in steps of log10 of the limit. Defaults are the library's
/// `VegasLimit.Builder`'s: initial 20, maximum 1,000, smoothing 1, probe multiplier 30.
///
/// ```
/// every probe (after jitter × 30 × limit samples, jitter uniform in [0.5, 1)): rtt_noload ← rtt
/// rtt < rtt_noload: rtt_noload ← rtt
/// else, with L = log10 root of the limit (max(1, ⌊log10 limit⌋)) and q the queue above:
///   drop                        limit − L
///   inflight × 2 < limit        no change
///   q ≤ L                       limit + 6 L
///   q < 3 L                     limit + L
///   q > 6 L                     limit − L
///   else                        no change
/// limit ← (1 − smoothing) limit + smoothing × min(max, max(1, new))
/// ```
/// The probe's jitter is drawn from the behaviour's own stream (the library draws it from the
/// thread's). A call that ends the instant it opens counts 1 ns (the library refuses an RTT of 0).
public struct VegasLimit: Hashable, Sendable {
    /// The limit before any sample.
    public let initialLimit: Int
    /// The most the limit may be.
    public let maxLimit: Int
    /// How much of each new estimate enters the limit, in (0, 1].
    public let smoothing: Double
    /// Samples between probes of the no-load RTT, per unit of limit (times a jitter in [0.5, 1)).
    public let probeMultiplier: Int

    /// The limit with the library's defaults for what is not given; ``invalidReason`` checks them.
    /// - Parameters:
    ///   - initialLimit: The limit before any sample.
    ///   - maxLimit: The most the limit may be.
    ///   - smoothing: How much of each new estimate enters the limit.
    ///   - probeMultiplier: Samples between probes, per unit of limit.
    public init(initialLimit: Int = 20, maxLimit: Int = 1_000, smoothing: Double = 1, probeMultiplier: Int = 30) {
        (self.initialLimit, self.maxLimit, self.smoothing, self.probeMultiplier) =
            (initialLimit, maxLimit, smoothing, probeMultiplier)
    }

    /// Why the parameters make no limit, or `nil` when they do.
    public var invalidReason: String? {
        if let reason = ConcurrencyLimit.boundsReason(initial: initialLimit, min: 1, max: maxLimit) { return reason }
        let largest = ConcurrencyLimit.largest
        if !(smoothing > 0 && smoothing <= 1) { return "smoothing must be above 0 and at most 1, got \(smoothing)" }
        if !(1...largest).contains(probeMultiplier) {
            return "probe must be from 1 to \(largest), got \(probeMultiplier)"
        }
        return nil
    }

    /// The parameters a `limit=vegas:...` spec gives, the library's defaults for the others.
    init(reading parameters: inout LimitParameters) throws(LayerSettingError) {
        let defaults = VegasLimit()
        self.init(
            initialLimit: try parameters.count("initial", defaults.initialLimit),
            maxLimit: try parameters.count("max", defaults.maxLimit),
            smoothing: try parameters.number("smoothing", defaults.smoothing),
            probeMultiplier: try parameters.count("probe", defaults.probeMultiplier))
    }

    /// The spec's parameters, every one written.
    var parameterText: String {
        "initial=\(initialLimit):max=\(maxLimit):smoothing=\(smoothing.decimalText):probe=\(probeMultiplier)"
    }

    /// max(1, ⌊log10 n⌋), the library's `Log10RootFunction` (1 for n below 10, and for 0).
    static func log10Root(_ n: Int) -> Int {
        n < 10 ? 1 : Int(Double(n).log10Floor)
    }

    /// The limit as it moves, sample by sample.
    struct State: LimitRule {
        let parameters: VegasLimit
        private(set) var estimatedLimit: Double
        /// The least RTT since the last probe, nanoseconds (0: none yet).
        private(set) var noLoadRtt: Int64 = 0
        private(set) var probeCount = 0
        private(set) var probeJitter: Double
        private var random: Taus2

        init(_ parameters: VegasLimit, seed: UInt64) {
            self.parameters = parameters
            estimatedLimit = Double(parameters.initialLimit)
            random = Taus2(seed: seed)
            probeJitter = 0
            probeJitter = nextJitter()
        }

        private mutating func nextJitter() -> Double { 0.5 + 0.5 * random.uniform() }

        var limit: Int { Int(estimatedLimit) }

        mutating func sample(rtt: Int64, inFlight: Int, didDrop: Bool) {
            let rtt = max(rtt, 1)
            probeCount += 1
            if probeJitter * Double(parameters.probeMultiplier) * estimatedLimit <= Double(probeCount) {
                probeJitter = nextJitter()
                probeCount = 0
                noLoadRtt = rtt
                return
            }
            if noLoadRtt == 0 || rtt < noLoadRtt {
                noLoadRtt = rtt
                return
            }
            let queueSize = (estimatedLimit * (1 - Double(noLoadRtt) / Double(rtt))).rounded(.up)
            let root = Double(VegasLimit.log10Root(Int(estimatedLimit)))
            let newLimit: Double
            if didDrop {
                newLimit = estimatedLimit - root
            } else if Double(inFlight * 2) < estimatedLimit {
                return
            } else if queueSize <= root {
                newLimit = estimatedLimit + 6 * root
            } else if queueSize < 3 * root {
                newLimit = estimatedLimit + root
            } else if queueSize > 6 * root {
                newLimit = estimatedLimit - root
            } else {
                return
            }
            let bounded = max(1, min(Double(parameters.maxLimit), newLimit))
            estimatedLimit = (1 - parameters.smoothing) * estimatedLimit + parameters.smoothing * bounded
        }
    }
}

extension Double {
    /// ⌊log10 self⌋ for self ≥ 1, exact at the powers of ten (where `log10` may round below).
    fileprivate var log10Floor: Double {
        var power = 1.0
        var exponent = -1.0
        while power <= self {
            power *= 10
            exponent += 1
        }
        return exponent
    }
}
