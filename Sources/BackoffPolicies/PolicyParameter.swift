/// The parameter of a policy that a ``PolicyError`` concerns, so a front end names what it took the
/// value from (an option, a table's column, a config's field) from its own declarations.
public enum PolicyParameter: Hashable, Sendable, CaseIterable {
    case base, multiplier, increment, cap, capMode, attempts, jitter, decorrelatedFactor, maxElapsed, firstRetry
    case granularity
}

extension PolicyError {
    /// The parameter whose value is refused (for a rule between two, the one it constrains: the cap
    /// for cap >= base, the attempts for waits that must fit virtual time).
    public var parameter: PolicyParameter {
        switch self {
        case .nonPositiveBase: .base
        case .multiplierBelowOne: .multiplier
        case .capBelowBase: .cap
        case .noAttempts, .waitsOverflow: .attempts
        case .decorrelatedFactorNotAboveOne: .decorrelatedFactor
        case .proportionalFractionOutOfRange, .upwardFractionOutOfRange, .negativeAdditiveSpread: .jitter
        case .capModeNotApplicable: .capMode
        case .negativeIncrement: .increment
        case .negativeMaxElapsed: .maxElapsed
        case .nonPositiveGranularity: .granularity
        case .waitShapeNeedsIndependentWaits: .jitter
        }
    }

    /// True when the value lies outside its parameter's own range (base > 0, m >= 1, n >= 1, r > 1,
    /// F in [0, 1], D, d and the time limit >= 0), false for a rule between parameters or of the whole
    /// policy (cap >= base, a cap rule the jitter cannot follow, waits that must fit virtual time).
    public var isOutsideOwnRange: Bool {
        switch self {
        case .capBelowBase, .capModeNotApplicable, .waitsOverflow, .waitShapeNeedsIndependentWaits: false
        default: true
        }
    }
}
