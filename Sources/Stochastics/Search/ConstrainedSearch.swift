/// The best candidate of a ``SearchSpace`` on an objective while constraints on other measures
/// hold, where each evaluation is expensive and noisy (a simulation).
///
/// The search runs in two phases:
/// 1. **Design.** A Latin hypercube of ``designPoints`` points over the numeric dimensions
///    (``LatinHypercube``), for each combination of the choices.
/// 2. **Refine.** GSL's Nelder-Mead simplex (``SimplexMinimizer``) from the three best points,
///    feasible ones first, over the continuous dimensions, with the integer ones and the choices
///    held. It minimises ``SearchEvaluation/penalized``. A point outside the unit cube is evaluated
///    clamped, plus a slope back toward the cube.
///
/// A candidate is evaluated once. When two points give the same values, the second reuses the
/// first's outcome. The evaluations come in the order the search makes them, so a seed gives
/// the same result every run. An evaluation may run its batch in parallel, as long as it returns
/// the outcomes in order.
public struct ConstrainedSearch: Sendable {
    public let space: SearchSpace
    /// The measure minimised (or maximised).
    public let objective: String
    public let maximizing: Bool
    public let constraints: [SearchConstraint]
    /// The design's points for each combination of choices.
    public let designPoints: Int
    /// The seed of the design's generator.
    public let seed: UInt64

    /// The simplex's first step along each unit coordinate, its stopping size, its iterations per
    /// start, and how many starts it takes.
    static let (simplexStep, simplexTolerance, simplexIterations, simplexStarts) = (0.15, 0.01, 30, 3)

    public init(
        space: SearchSpace, objective: String, maximizing: Bool = false, constraints: [SearchConstraint] = [],
        designPoints: Int, seed: UInt64
    ) {
        precondition(designPoints >= 1, "a design has at least one point")
        (self.space, self.objective, self.maximizing) = (space, objective, maximizing)
        (self.constraints, self.designPoints, self.seed) = (constraints, designPoints, seed)
    }

    /// Runs the search.
    /// - Parameters:
    ///   - evaluate: the outcomes of a batch of new candidates, in their order.
    ///   - measure: an outcome's value of a measure (the objective or a constrained one); `nil`
    ///     when it has none.
    ///   - phaseEnded: called after each phase with what has been evaluated so far (after the
    ///     refinement only when a continuous dimension varies).
    public func run<Outcome, Failure: Error>(
        evaluate: ([SearchCandidate]) throws(Failure) -> [Outcome],
        measure: (Outcome, String) -> Double?,
        phaseEnded: (SearchEvaluation<Outcome>.Phase, SearchResult<Outcome>) -> Void = { _, _ in }
    ) throws(SearchFailure<Failure>) -> SearchResult<Outcome> {
        var result = SearchResult<Outcome>(constraints: constraints, evaluations: [])
        var seen: [SearchCandidate: Int] = [:]

        /// Evaluates the candidates not seen yet, in the order given, and returns every candidate's evaluation.
        func evaluations(
            _ candidates: [SearchCandidate], _ phase: SearchEvaluation<Outcome>.Phase
        ) throws(SearchFailure<Failure>) -> [SearchEvaluation<Outcome>] {
            var unseen: [SearchCandidate] = []
            for candidate in candidates where seen[candidate] == nil && !unseen.contains(candidate) {
                unseen.append(candidate)
            }
            let outcomes: [Outcome]
            do {
                outcomes = unseen.isEmpty ? [] : try evaluate(unseen)
            } catch {
                throw .evaluation(error)
            }
            precondition(outcomes.count == unseen.count, "one outcome per candidate")
            for (candidate, outcome) in zip(unseen, outcomes) {
                seen[candidate] = result.evaluations.count
                result.evaluations.append(
                    self.evaluation(candidate, phase, outcome, measure, result.evaluations.count + 1))
            }
            return candidates.map { result.evaluations[seen[$0]!] }
        }

        // 1. The design, for each combination of the choices.
        let random: RandomGenerator
        do {
            random = try RandomGenerator(seed: seed)
        } catch {
            throw .generator(error)
        }
        let numeric = space.numericNames
        var design: [SearchCandidate] = []
        for choices in space.choiceCombinations {
            for unit in LatinHypercube.design(points: designPoints, dimensions: numeric.count, using: random) {
                design.append(space.candidate(unit: unit, choices: choices))
            }
        }
        _ = try evaluations(design, .design)
        phaseEnded(.design, result)

        // 2. The simplex from the best points, over the continuous dimensions that vary.
        let continuous = numeric.indices.filter { index in
            if case .continuous = space.dimensions[numeric[index]]!, space.dimensions[numeric[index]]!.isVaried {
                return true
            }
            return false
        }
        guard !continuous.isEmpty else { return result }
        let starts = result.evaluations.sorted { $0.penalized < $1.penalized }.prefix(Self.simplexStarts)
        for start in starts.map(\.candidate) {
            var failure: SearchFailure<Failure>?
            do throws(StochasticsError) {
                _ = try SimplexMinimizer.minimize(
                    start: continuous.map { start.unit[$0] }, step: continuous.map { _ in Self.simplexStep },
                    tolerance: Self.simplexTolerance, maxIterations: Self.simplexIterations
                ) { x in
                    guard failure == nil else { return .greatestFiniteMagnitude }
                    var unit = start.unit
                    for (axis, index) in continuous.enumerated() { unit[index] = min(1, max(0, x[axis])) }
                    let outside = zip(continuous.indices, continuous).reduce(0.0) { total, pair in
                        total + abs(x[pair.0] - unit[pair.1])
                    }
                    do throws(SearchFailure<Failure>) {
                        let penalized = try evaluations(
                            [space.candidate(unit: unit, choices: start.choices)], .refine)[0].penalized
                        return penalized + outside * (abs(penalized) + 1)
                    } catch {
                        failure = error
                        return .greatestFiniteMagnitude
                    }
                }
            } catch {
                throw .simplex(error)
            }
            if let failure { throw failure }
        }
        phaseEnded(.refine, result)
        return result
    }

    private func evaluation<Outcome>(
        _ candidate: SearchCandidate, _ phase: SearchEvaluation<Outcome>.Phase, _ outcome: Outcome,
        _ measure: (Outcome, String) -> Double?, _ index: Int
    ) -> SearchEvaluation<Outcome> {
        let objective = measure(outcome, objective).flatMap { $0.isFinite ? $0 : nil }
        let constrained = constraints.map { measure(outcome, $0.measure) }
        return SearchEvaluation(
            index: index, candidate: candidate, phase: phase, outcome: outcome,
            score: objective.map { maximizing ? -$0 : $0 } ?? .infinity, constrained: constrained,
            violations: zip(constraints, constrained).map { $0.relativeViolation($1) })
    }
}
