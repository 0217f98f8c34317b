import Stochastics
import Testing

/// The search behind `tune`, on objectives whose answers are known.
@Suite struct ConstrainedSearchTests {
    /// The value of a real dimension.
    private static func real(_ candidate: SearchCandidate, _ name: String) -> Double {
        guard case .real(let x) = candidate.values[name] else { return .nan }
        return x
    }

    /// Minimise (x − 3)² + (y − 0.5)² (+ 1 with choice b) subject to x ≤ 2: the answer is x = 2,
    /// y = 0.5 with choice a, at 1. The design alone lands near it; the simplex brings it within
    /// its tolerance (0.01 of a unit coordinate: 0.1 in x, 0.01 in y, so at most 1 + 0.2 + 0.0001
    /// in the objective from x alone, 1.05 asked for with room for the penalty's pull).
    @Test func findsTheConstrainedMinimum() throws {
        let space = try SearchSpace([
            ("x", .continuous(low: 0, high: 10, logarithmic: false, wholeNumbers: false)),
            ("y", .continuous(low: 0, high: 1, logarithmic: false, wholeNumbers: false)),
            ("c", .choices(["a", "b"])),
        ])
        let search = ConstrainedSearch(
            space: space, objective: "f", constraints: [SearchConstraint("x", atMost: true, bound: 2)],
            designPoints: 12, seed: 2015)
        var phases: [SearchEvaluation<[String: Double]>.Phase] = []
        var batches = 0
        let result = try search.run { (candidates: [SearchCandidate]) throws(Never) -> [[String: Double]] in
            batches += 1
            return candidates.map { candidate in
                let (x, y) = (Self.real(candidate, "x"), Self.real(candidate, "y"))
                let extra = candidate.values["c"] == .choice("b") ? 1.0 : 0
                return ["f": (x - 3) * (x - 3) + (y - 0.5) * (y - 0.5) + extra, "x": x]
            }
        } measure: { outcome, name in
            outcome[name]
        } phaseEnded: { phase, result in
            phases.append(phase)
            #expect(result.evaluations.count >= 24)
        }
        #expect(phases == [.design, .refine])
        #expect(result.evaluations.prefix(24).allSatisfy { $0.phase == .design })
        #expect(result.evaluations.dropFirst(24).allSatisfy { $0.phase == .refine })
        // The design is one batch; each new point of the simplex is another (a point seen before is not run again).
        #expect(batches == 1 + result.evaluations.count - 24)
        #expect(result.evaluations.map(\.index) == Array(1...result.evaluations.count))
        #expect(Set(result.evaluations.map(\.candidate)).count == result.evaluations.count, "each candidate once")
        let best = try #require(result.best)
        #expect(best.isFeasible && best.candidate.choices == ["c": "a"])
        #expect(Self.real(best.candidate, "x") <= 2 && Self.real(best.candidate, "x") > 1.9, "\(best.candidate)")
        #expect(abs(Self.real(best.candidate, "y") - 0.5) < 0.05, "\(best.candidate)")
        #expect(best.score >= 1 && best.score < 1.05, "\(best.score)")
        #expect(result.evaluations.filter { Self.real($0.candidate, "x") > 2 }.allSatisfy { !$0.isFeasible })
    }

    /// Five choices with known objective and load: b dominates d and e, a has the best objective
    /// and c the least load, so the front is {a, b, c}. Maximising flips the objective's order.
    @Test func paretoFrontAndBestOnAKnownTable() throws {
        let table: [String: (objective: Double, load: Double)] = [
            "a": (1, 5), "b": (2, 3), "c": (3, 1), "d": (2, 4), "e": (3, 3),
        ]
        let space = try SearchSpace([("p", .choices(["a", "b", "c", "d", "e"]))])
        func run(maximizing: Bool, bound: Double) throws -> SearchResult<String> {
            let search = ConstrainedSearch(
                space: space, objective: "objective", maximizing: maximizing,
                constraints: [SearchConstraint("load", atMost: true, bound: bound)], designPoints: 4, seed: 1)
            return try search.run { (candidates: [SearchCandidate]) throws(Never) -> [String] in
                candidates.map { $0.choices["p"]! }
            } measure: { label, name in
                name == "objective" ? table[label]!.objective : table[label]!.load
            }
        }
        let minimised = try run(maximizing: false, bound: 10)
        #expect(minimised.evaluations.count == 5, "four design points of one choice are one candidate")
        let label = { (index: Int) in minimised.evaluations[index - 1].outcome }
        #expect(Set(minimised.paretoFront.map(label)) == ["a", "b", "c"])
        #expect(minimised.best?.outcome == "a")
        #expect(try run(maximizing: true, bound: 10).best?.outcome == "c")
        // With load <= 3 only b, c and e hold; the best of them on the objective is b.
        let bounded = try run(maximizing: false, bound: 3)
        #expect(bounded.best?.outcome == "b" && bounded.feasibleCount == 3)
        // With load <= 0 none holds; the closest is 1 above its bound, c's load.
        let none = try run(maximizing: false, bound: 0)
        #expect(none.best == nil && none.closestConstraint?.nearest == 1)
    }

    /// A missing or non-finite objective is the worst score, and a missing constrained measure
    /// violates its constraint.
    @Test func missingMeasuresAreWorst() throws {
        let space = try SearchSpace([("p", .choices(["ok", "nan", "missing"]))])
        let search = ConstrainedSearch(
            space: space, objective: "f", constraints: [SearchConstraint("g", atMost: false, bound: 0)],
            designPoints: 2, seed: 3)
        let result = try search.run { (candidates: [SearchCandidate]) throws(Never) -> [String] in
            candidates.map { $0.choices["p"]! }
        } measure: { label, name in
            switch label {
            case "ok": 5
            case "nan": name == "f" ? .nan : 1
            default: nil
            }
        }
        let byLabel = Dictionary(uniqueKeysWithValues: result.evaluations.map { ($0.outcome, $0) })
        #expect(byLabel["nan"]!.score == .infinity && byLabel["nan"]!.isFeasible)
        #expect(byLabel["missing"]!.score == .infinity && !byLabel["missing"]!.isFeasible)
        #expect(result.best?.outcome == "ok")
    }

    struct Refused: Error, Equatable {}

    /// An evaluation that throws ends the search with its error, and no evaluation follows it.
    @Test func anEvaluationsErrorEndsTheSearch() throws {
        let space = try SearchSpace([("x", .continuous(low: 0, high: 1, logarithmic: false, wholeNumbers: false))])
        let search = ConstrainedSearch(space: space, objective: "x", designPoints: 5, seed: 9)
        var calls = 0
        do {
            _ = try search.run { (candidates: [SearchCandidate]) throws(Refused) -> [Double] in
                calls += 1
                if calls == 3 { throw Refused() }
                return candidates.map { Self.real($0, "x") }
            } measure: { x, _ in
                x
            }
            Issue.record("the search did not fail")
        } catch {
            guard case .evaluation(let refused) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(refused == Refused())
        }
        #expect(calls == 3)
    }
}
