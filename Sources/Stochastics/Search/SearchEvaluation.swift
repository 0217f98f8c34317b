/// One candidate a ``ConstrainedSearch`` evaluated: its outcome, and how it scores.
public struct SearchEvaluation<Outcome> {
    /// Where the search made a candidate.
    public enum Phase: String, Hashable, Sendable {
        /// A point of the Latin hypercube design.
        case design
        /// A point the simplex asked for.
        case refine
    }

    /// 1 for the first candidate evaluated, and so on.
    public let index: Int
    public let candidate: SearchCandidate
    public let phase: Phase
    /// What the evaluation returned.
    public let outcome: Outcome
    /// The objective as minimised (negated when maximising); infinite when missing or not finite,
    /// so such a candidate is the worst.
    public let score: Double
    /// Each constrained measure as measured (`nil` when missing), in the order of the constraints.
    public let constrained: [Double?]
    /// Each constraint's ``SearchConstraint/relativeViolation(_:)``: 0 where it holds.
    public let violations: [Double]

    /// True when every constraint holds.
    public var isFeasible: Bool { violations.allSatisfy { $0 == 0 } }

    /// What the simplex minimises: the score, plus a penalty that puts every infeasible point
    /// behind every feasible one of the same scale (a missing score is nearly the largest value).
    public var penalized: Double {
        let violation = violations.reduce(0, +)
        guard score.isFinite else { return .greatestFiniteMagnitude / 4 }
        return violation == 0 ? score : score + (abs(score) + 1) * 1000 * (1 + violation)
    }

    /// The values compared for Pareto dominance, each lower-is-better: the score, then each
    /// constrained measure (negated for an at-least constraint; infinite when missing).
    func paretoValues(_ constraints: [SearchConstraint]) -> [Double] {
        [score]
            + zip(constraints, constrained).map { constraint, value in
                let value = value ?? .infinity
                return constraint.atMost ? value : -value
            }
    }
}

extension SearchEvaluation: Sendable where Outcome: Sendable {}
