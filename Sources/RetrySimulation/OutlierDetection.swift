import EventSimulation

/// Envoy's outlier detection by consecutive 5xx (`simulate --outlier-detection`): a host whose
/// answers fail `consecutiveFailures` times in a row is ejected, and a balancer sends it nothing
/// until it is back. It is back at the first of the detector's `interval` ticks (from t = 0) once
/// `baseEjectionTime` times the number of times it was ejected has passed, as Envoy's interval
/// timer brings it back. At most `maxEjectionPercent` of the hosts are out at once, and at least
/// one may be (Envoy's rule), though never the last host.
///
/// A failure is an answer that failed (a fail-fast or failing host's, a full queue's rejection); a
/// success resets the count; a permanent error (a 4xx), a timeout and a cancelled copy count
/// nothing. Not modelled: Envoy's success-rate and failure-percentage detectors, and the ejection
/// time's decay for a host that has stayed healthy.
public struct OutlierDetection: Hashable, Sendable {
    public let consecutiveFailures: Int
    public let interval: Duration
    public let baseEjectionTime: Duration
    public let maxEjectionPercent: Double

    /// Envoy's defaults: 5 in a row, a 10 s interval, 30 s of ejection, 10 % of the hosts.
    public init(
        consecutiveFailures: Int = 5, interval: Duration = .seconds(10), baseEjectionTime: Duration = .seconds(30),
        maxEjectionPercent: Double = 10
    ) {
        self.consecutiveFailures = consecutiveFailures
        self.interval = interval
        self.baseEjectionTime = baseEjectionTime
        self.maxEjectionPercent = maxEjectionPercent
    }

    /// The most consecutive failures a detector may wait for.
    public static let mostFailures = 1_000_000

    /// A count from 1, durations above 0 within virtual time's horizon, a percent in [0, 100].
    public var isValid: Bool {
        let horizon = Duration.nanoseconds(VirtualTime.horizon.nanoseconds)
        return (1...Self.mostFailures).contains(consecutiveFailures) && interval > .zero && interval <= horizon
            && baseEjectionTime > .zero && baseEjectionTime <= horizon && (0...100).contains(maxEjectionPercent)
    }

    /// The most of `hosts` hosts out at once: the percent's share, at least one, never all.
    public func mostEjected(of hosts: Int) -> Int {
        min(hosts - 1, max(1, Int((maxEjectionPercent / 100 * Double(hosts)).rounded(.down))))
    }
}
