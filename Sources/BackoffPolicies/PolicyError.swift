/// A policy parameter outside its accepted range. Each case carries the offending value.
public enum PolicyError: Error, Equatable, Sendable {
    /// The base must be finite and greater than zero.
    case nonPositiveBase(Duration)
    /// The multiplier must be finite and at least 1.
    case multiplierBelowOne(Double)
    /// The cap must be at least the base.
    case capBelowBase(cap: Duration, base: Duration)
    /// A request makes at least one attempt (max retries at least 0).
    case noAttempts(AttemptBudget)
    /// The decorrelated factor r must be finite and greater than 1.
    case decorrelatedFactorNotAboveOne(Double)
    /// The fraction F of proportional jitter must lie in [0, 1].
    case proportionalFractionOutOfRange(Double)
    /// The fraction F of upward jitter must be finite and not negative.
    case upwardFractionOutOfRange(Double)
    /// The spread D of additive jitter must not be negative.
    case negativeAdditiveSpread(Duration)
    /// The jitter mode cannot follow this cap mode (polly-v2 only clamps).
    case capModeNotApplicable(CapMode, jitter: Jitter)
    /// A linear increment must not be negative.
    case negativeIncrement(Duration)
    /// A total-time limit must not be negative.
    case negativeMaxElapsed(Duration)
    /// The longest possible total wait does not fit in virtual time (about 146 years).
    case waitsOverflow(longestTotalWaitSeconds: Double)
    /// A granularity must be greater than zero.
    case nonPositiveGranularity(Duration)
    /// A first-retry rule or a granularity needs waits drawn independently of each other, which the
    /// decorrelated chains and polly-v2 do not have.
    case waitShapeNeedsIndependentWaits(jitter: Jitter, rule: String)
}

extension PolicyError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .nonPositiveBase(let base):
            "the base must be greater than 0, got \(base)"
        case .multiplierBelowOne(let m):
            "the multiplier must be a finite number >= 1, got \(m)"
        case .capBelowBase(let cap, let base):
            "the cap (\(cap)) must be at least the base (\(base))"
        case .noAttempts(let budget):
            "a request makes at least 1 attempt, got \(budget)"
        case .decorrelatedFactorNotAboveOne(let r):
            "the decorrelated factor must be a finite number > 1, got \(r)"
        case .proportionalFractionOutOfRange(let f):
            "the fraction of proportional jitter must lie in [0, 1], got \(f)"
        case .upwardFractionOutOfRange(let f):
            "the fraction of upward jitter must be a finite number >= 0, got \(f)"
        case .negativeAdditiveSpread(let d):
            "the spread of additive jitter must not be negative, got \(d)"
        case .capModeNotApplicable(let mode, let jitter):
            "\(jitter.name) jitter cannot follow cap mode \(mode.rawValue); it accepts "
                + jitter.capModes.map(\.rawValue).joined(separator: ", ")
        case .negativeIncrement(let d):
            "the linear increment must not be negative, got \(d)"
        case .negativeMaxElapsed(let d):
            "the total-time limit must not be negative, got \(d)"
        case .waitsOverflow(let seconds):
            "the longest total wait would be \(seconds) s, beyond what virtual time holds (about 146 years); "
                + "set a cap or allow fewer attempts"
        case .nonPositiveGranularity(let g):
            "the granularity must be greater than 0, got \(g)"
        case .waitShapeNeedsIndependentWaits(let jitter, let rule) where !jitter.buildsItsOwnSchedule:
            "\(rule) needs waits drawn uniformly from a window; \(jitter.name) jitter's waits have none (use none, "
                + "full, equal, proportional, upward or additive)"
        case .waitShapeNeedsIndependentWaits(let jitter, let rule):
            "\(rule) needs waits drawn independently of each other; \(jitter.name) jitter draws each wait from the "
                + "one before (use none, full, equal, proportional or additive)"
        }
    }
}
