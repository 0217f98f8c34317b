/// Whether an observed mean is consistent with an expected one: |observed - expected| within
/// `limit` standard errors. For a regression check of simulated means against formulas (or against
/// an earlier run), in this toolkit's tests and in yours; its description states the numbers.
///
/// ```
/// z = (observed - expected) / standardError      passes when |z| <= limit
/// ```
/// With a zero standard error (a deterministic quantity) the check passes when the two agree within
/// `exactTolerance` (z = 0) and fails otherwise (z = ±∞).
public struct MeanCheck: Hashable, Sendable, CustomStringConvertible {
    public let observed: Double
    public let expected: Double
    public let standardError: Double
    public let limit: Double
    /// The z-score; NaN when the standard error is NaN (fewer than two samples).
    public let z: Double

    public init(
        observed: Double, expected: Double, standardError: Double, limit: Double = 4, exactTolerance: Double = 1e-9
    ) {
        self.observed = observed
        self.expected = expected
        self.standardError = standardError
        self.limit = limit
        let difference = observed - expected
        if standardError.isNaN {
            z = .nan
        } else if standardError == 0 || abs(difference) <= exactTolerance && standardError <= exactTolerance {
            z = abs(difference) <= exactTolerance ? 0 : (difference > 0 ? .infinity : -.infinity)
        } else {
            z = difference / standardError
        }
    }

    /// True when |z| <= limit.
    public var passed: Bool { abs(z) <= limit }

    public var description: String {
        "observed \(observed) vs expected \(expected): z = \(z) with standard error \(standardError) "
            + (passed ? "(|z| <= \(limit))" : "(|z| > \(limit))")
    }
}

extension Summary {
    /// Checks this sample's mean against `expected` at `limit` standard errors of the mean.
    public func checkMean(against expected: Double, limit: Double = 4) -> MeanCheck {
        MeanCheck(observed: mean, expected: expected, standardError: standardError, limit: limit)
    }
}
