/// The un-jittered wait e_k before retry k (k = 1, 2, ...), before the cap is applied.
///
/// ```
/// exponential  b m^(k-1)
/// constant     b
/// linear       b + (k-1) d
/// immediate    0
/// ```
public enum BackoffSchedule: Hashable, Sendable {
    case exponential(multiplier: Double)
    case constant
    case linear(increment: Duration)
    /// Retry at once: every wait is zero, whatever the jitter mode.
    case immediate

    /// The command-line name: `exponential`, `constant`, `linear` or `immediate`.
    public var name: String {
        switch self {
        case .exponential: "exponential"
        case .constant: "constant"
        case .linear: "linear"
        case .immediate: "immediate"
        }
    }

    /// The multiplier m of an exponential schedule; 1 for the others (as reported in CSV).
    public var multiplier: Double {
        if case .exponential(let m) = self { return m }
        return 1
    }
}
