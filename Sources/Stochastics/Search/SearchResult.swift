/// What a ``ConstrainedSearch`` evaluated, and its answers: the best feasible candidate, the Pareto
/// front, and the constraint closest to holding when none is feasible.
public struct SearchResult<Outcome> {
    /// The constraints the candidates were held to.
    public let constraints: [SearchConstraint]
    /// Every candidate, each once, in the order evaluated.
    public internal(set) var evaluations: [SearchEvaluation<Outcome>]

    /// The feasible candidate with the lowest score (the earliest of equals); `nil` when none is feasible.
    public var best: SearchEvaluation<Outcome>? {
        evaluations.filter(\.isFeasible).min { ($0.score, $0.index) < ($1.score, $1.index) }
    }

    /// The number of feasible candidates.
    public var feasibleCount: Int { evaluations.count(where: \.isFeasible) }

    /// The indices of the candidates no other beats: none at least as good on the objective and
    /// every constrained measure (lower for at-most, higher for at-least) and better on one.
    public var paretoFront: Set<Int> {
        let all = evaluations.map { ($0.index, $0.paretoValues(constraints)) }
        var front = Set<Int>()
        for (index, mine) in all {
            let dominated = all.contains { other in
                other.0 != index && zip(other.1, mine).allSatisfy { $0 <= $1 }
                    && zip(other.1, mine).contains { $0 < $1 }
            }
            if !dominated { front.insert(index) }
        }
        return front
    }

    /// The constraint closest to holding (the least relative violation over the candidates; the
    /// first of equals), and the best value any candidate measured for it: `nil` without constraints.
    public var closestConstraint: (constraint: SearchConstraint, nearest: Double?)? {
        let closest = constraints.indices.map { index in
            (index, evaluations.map { $0.violations[index] }.min() ?? .infinity)
        }.min { $0.1 < $1.1 }
        return closest.map { index, _ in
            let constraint = constraints[index]
            let values = evaluations.compactMap { $0.constrained[index] }
            return (constraint, constraint.atMost ? values.min() : values.max())
        }
    }
}

extension SearchResult: Sendable where Outcome: Sendable {}
