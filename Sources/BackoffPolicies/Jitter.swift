/// How a policy randomises each wait around its nominal value e_k.
///
/// ```
/// disabled      w_k = e_k
/// full          w_k ~ U(0, e_k)
/// equal         w_k = e_k/2 + U(0, e_k/2)
/// decorrelated  s_0 = b,  w_k = s_k = min(c, U(b, r s_(k-1)))
/// ```
/// Decorrelated jitter (AWS Architecture Blog, "Exponential Backoff And Jitter", 2015) builds its own
/// schedule from the base b, the cap c and the factor r; it does not use the policy's multiplier.
/// The case for no jitter is `disabled` rather than `none`, which would clash with `Optional.none`;
/// its command-line name is still `none`.
public enum Jitter: Hashable, Sendable {
    case disabled
    case full
    case equal
    case decorrelated(factor: Double = 3)

    /// The four modes with default parameters, in their documented order.
    public static let allModes: [Jitter] = [.disabled, .full, .equal, .decorrelated()]

    /// The command-line and CSV name: `none`, `full`, `equal` or `decorrelated`.
    public var name: String {
        switch self {
        case .disabled: "none"
        case .full: "full"
        case .equal: "equal"
        case .decorrelated: "decorrelated"
        }
    }

    /// Parses a command-line name; `factor` is used for `decorrelated`.
    public init?(name: String, decorrelatedFactor factor: Double = 3) {
        switch name {
        case "none": self = .disabled
        case "full": self = .full
        case "equal": self = .equal
        case "decorrelated": self = .decorrelated(factor: factor)
        default: return nil
        }
    }

    /// True when waits are random draws.
    public var isRandom: Bool { self != .disabled }
}
