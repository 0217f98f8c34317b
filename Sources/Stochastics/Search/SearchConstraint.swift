/// A bound on one measure of a candidate's outcome: at most, or at least, `bound`.
public struct SearchConstraint: Hashable, Sendable {
    /// The measure bounded (a column of a simulation's row, say).
    public let measure: String
    /// True for `measure <= bound`, false for `measure >= bound`.
    public let atMost: Bool
    /// The bound, finite.
    public let bound: Double

    public init(_ measure: String, atMost: Bool, bound: Double) {
        precondition(bound.isFinite, "a constraint's bound is finite")
        (self.measure, self.atMost, self.bound) = (measure, atMost, bound)
    }

    /// How far `value` lies outside the bound (0 when it holds).
    public func violation(_ value: Double) -> Double { atMost ? max(0, value - bound) : max(0, bound - value) }

    /// The violation relative to the bound's size (at least 1), so constraints on measures of
    /// different scales add up; infinite for a missing or non-finite value.
    public func relativeViolation(_ value: Double?) -> Double {
        guard let value, value.isFinite else { return .infinity }
        return violation(value) / max(1, abs(bound))
    }
}
