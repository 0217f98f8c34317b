import Foundation
import Parallelism
import Stochastics

extension TuneCommand {
    /// One evaluated candidate.
    struct Evaluation {
        let index: Int
        let candidate: Candidate
        let row: [String: String]
        let phase: String
    }

    /// The objective as minimised (negated when maximising); NaN and missing values are worst.
    func score(_ row: [String: String]) -> Double {
        guard let value = row[objectiveColumn].flatMap(Double.init), value.isFinite else { return .infinity }
        return maximizing ? -value : value
    }

    /// The violations of the constraints, each relative to its bound's size (0 when all hold).
    func violations(_ row: [String: String]) -> [Double] {
        constraints.map { constraint in
            guard let value = row[constraint.column].flatMap(Double.init), value.isFinite else { return .infinity }
            return constraint.violation(value) / max(1, abs(constraint.bound))
        }
    }

    func feasible(_ row: [String: String]) -> Bool { violations(row).allSatisfy { $0 == 0 } }

    /// The objective plus a penalty that puts every infeasible point behind every feasible one of
    /// the same scale: what the simplex minimises.
    func penalized(_ row: [String: String]) -> Double {
        let score = score(row)
        let violation = violations(row).reduce(0, +)
        guard score.isFinite else { return .greatestFiniteMagnitude / 4 }
        return violation == 0 ? score : score + (abs(score) + 1) * 1000 * (1 + violation)
    }

    /// Runs the search and writes the table; returns the exit status (0, or 1 when no candidate is
    /// feasible or the best one fails on a fresh seed).
    func run(standardOutput: inout some TextOutputStream, standardError: inout some TextOutputStream)
        throws(CommandLineError) -> Int32
    {
        let output = try outputPath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        var evaluations: [Evaluation] = []
        var seen: [Candidate: Int] = [:]
        let base = scenarioOptions + [(RunOptions.seedOption.name, String(seed)), (RunOptions.jobsOption.name, "1")]

        /// Runs the candidates not yet seen, `jobs` at a time, in order.
        func evaluate(_ candidates: [Candidate], phase: String) throws(CommandLineError) -> [[String: String]] {
            // New candidates in the order given (no hashing order, so the table is the same every run).
            var unseen: [Candidate] = []
            for candidate in candidates where seen[candidate] == nil && !unseen.contains(candidate) {
                unseen.append(candidate)
            }
            let fresh = unseen
            let rows: [[String: String]]
            do {
                rows = try ParallelWork.map(fresh.count, jobs: jobs) { index in
                    try Self.simulate(base + Self.values(fresh[index]))
                }
            } catch let error as CommandLineError {
                throw error
            } catch {
                throw .failure("\(error)")
            }
            for (candidate, row) in zip(fresh, rows) {
                seen[candidate] = evaluations.count
                evaluations.append(
                    Evaluation(index: evaluations.count + 1, candidate: candidate, row: row, phase: phase))
            }
            return candidates.map { evaluations[seen[$0]!].row }
        }

        // 1. A Latin hypercube of the numeric dimensions for each combination of the choices.
        var random = try Self.generator(SeedDerivation.streamSeed(root: seed, stream: 0x7E5E))
        let numeric = space.numericNames
        var design: [Candidate] = []
        for choices in space.choiceCombinations {
            let columns = numeric.map { _ in Self.latinColumn(designPoints, using: &random) }
            for point in 0..<designPoints {
                design.append(Candidate(space: space, unit: columns.map { $0[point] }, choices: choices))
            }
        }
        _ = try evaluate(design, phase: "design")
        standardError.write(
            "tune: design: \(evaluations.count) candidates, \(evaluations.filter { feasible($0.row) }.count) feasible\n"
        )

        // 2. The simplex from the three best design points (feasible ones first), over the continuous
        //    dimensions, the integer ones and the choices held.
        let continuous = numeric.enumerated().filter { entry in
            if case .continuous(let low, let high, _, _) = space.dimensions[entry.element]!, high > low { return true }
            return false
        }.map(\.offset)
        if !continuous.isEmpty {
            let starts = evaluations.sorted { penalized($0.row) < penalized($1.row) }.prefix(3).map(\.candidate)
            for start in starts {
                var failure: CommandLineError?
                do {
                    _ = try SimplexMinimizer.minimize(
                        start: continuous.map { start.unit[$0] }, step: continuous.map { _ in 0.15 }, tolerance: 0.01,
                        maxIterations: 30
                    ) { x in
                        var unit = start.unit
                        for (axis, index) in continuous.enumerated() { unit[index] = min(1, max(0, x[axis])) }
                        // Outside the unit cube: the clamped point, plus a slope back toward it.
                        let outside = zip(continuous.indices, continuous).reduce(0.0) { total, pair in
                            total + abs(x[pair.0] - unit[pair.1])
                        }
                        do {
                            let row = try evaluate(
                                [Candidate(space: space, unit: unit, choices: start.choices)], phase: "refine")[0]
                            return penalized(row) + outside * (abs(penalized(row)) + 1)
                        } catch let error as CommandLineError {
                            failure = error
                            return .greatestFiniteMagnitude
                        } catch {
                            failure = .failure("\(error)")
                            return .greatestFiniteMagnitude
                        }
                    }
                } catch {
                    throw .failure("the simplex failed: \(error)")
                }
                if let failure { throw failure }
            }
            standardError.write("tune: refined: \(evaluations.count) candidates in all\n")
        }

        // 3. The table, the best feasible candidate first.
        let feasibleOnes = evaluations.filter { feasible($0.row) }
        let best = feasibleOnes.min { (score($0.row), $0.index) < (score($1.row), $1.index) }
        let ordered = (best.map { [$0] } ?? []) + evaluations.filter { $0.index != best?.index }
        let table = self.table(ordered, pareto: paretoSet(evaluations))
        if let output {
            output.write(table.text)
            try output.commit()
        } else {
            standardOutput.write(table.text)
        }

        // 4. The answer, re-run on a fresh seed.
        guard let best else {
            let closest = constraints.indices.map { index in
                (index, evaluations.map { violations($0.row)[index] }.min() ?? .infinity)
            }.min { $0.1 < $1.1 }
            let message =
                closest.map { index, _ in
                    let constraint = constraints[index]
                    let values = evaluations.compactMap { $0.row[constraint.column].flatMap(Double.init) }
                    let nearest = constraint.atMost ? values.min() : values.max()
                    return
                        "; the closest to holding is \(constraint.text) (best value \(nearest.map(CSVFormat.number) ?? "none"))"
                } ?? ""
            standardError.write("tune: no candidate satisfies every constraint\(message)\n")
            return 1
        }
        let freshSeed = SeedDerivation.streamSeed(root: seed, stream: 0xF4E5)
        let check = try Self.simulate(
            scenarioOptions + Self.values(best.candidate) + [
                (RunOptions.seedOption.name, String(freshSeed)), (RunOptions.jobsOption.name, "1"),
            ])
        let holds = feasible(check)
        let report = constraints.map { "\($0.column) \(check[$0.column] ?? "") (\($0.text))" }.joined(separator: ", ")
        standardError.write(
            "tune: best: candidate \(best.index), \(objectiveColumn) \(best.row[objectiveColumn] ?? ""); on a fresh seed (\(freshSeed)) "
                + "\(objectiveColumn) \(check[objectiveColumn] ?? "")"
                + (constraints.isEmpty
                    ? "\n" : ", and the constraints \(holds ? "still hold" : "DO NOT hold"): \(report)\n"))
        return holds ? 0 : 1
    }

    /// The candidates no other beats: none at least as good on the objective and every constrained
    /// column (lower for <=, higher for >=) and better on one.
    func paretoSet(_ evaluations: [Evaluation]) -> Set<Int> {
        func values(_ evaluation: Evaluation) -> [Double] {
            [score(evaluation.row)]
                + constraints.map { constraint in
                    let value = evaluation.row[constraint.column].flatMap(Double.init) ?? .infinity
                    return constraint.atMost ? value : -value
                }
        }
        let all = evaluations.map { ($0.index, values($0)) }
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

    /// The table: candidate and phase, the policy columns as simulate writes them, each searched
    /// option that is not one of them, the objective and the constrained columns, feasible and pareto.
    func table(_ evaluations: [Evaluation], pareto: Set<Int>) -> CSVTable {
        let policyColumns = [
            "jitter", "base_s", "multiplier", "cap_s", "max_attempts", "schedule", "decorrelated_factor",
            "max_elapsed_s", "cap_mode",
        ]
        let covered: Set<String> = [
            "jitter", "base", "multiplier", "cap", "max-attempts", "max-retries", "schedule",
            "decorrelated-factor", "max-elapsed", "cap-mode",
        ]
        let searched = space.names.filter { !covered.contains($0) }
        var measured: [String] = [objectiveColumn]
        for constraint in constraints where !measured.contains(constraint.column) { measured.append(constraint.column) }
        var table = CSVTable(
            header: ["candidate", "phase"] + policyColumns + searched + measured + ["feasible", "pareto"])
        for evaluation in evaluations {
            table.append(
                [String(evaluation.index), evaluation.phase] + policyColumns.map { evaluation.row[$0] ?? "" }
                    + searched.map { evaluation.candidate.values[$0] ?? "" } + measured.map { evaluation.row[$0] ?? "" }
                    + [feasible(evaluation.row) ? "yes" : "no", pareto.contains(evaluation.index) ? "yes" : "no"])
        }
        return table
    }

    /// A generator for the design, from its own stream of the root seed.
    static func generator(_ seed: UInt64) throws(CommandLineError) -> RandomGenerator {
        do {
            return try RandomGenerator(seed: seed)
        } catch {
            throw .failure("\(error)")
        }
    }

    /// One coordinate of a Latin hypercube of `count` points: a random permutation of the strata
    /// [i/count, (i+1)/count), with a uniform position in each.
    static func latinColumn(_ count: Int, using random: inout RandomGenerator) -> [Double] {
        var strata = Array(0..<count)
        for i in stride(from: count - 1, to: 0, by: -1) {
            let j = Int(random.nextUniform() * Double(i + 1))
            strata.swapAt(i, min(j, i))
        }
        return strata.map { (Double($0) + random.nextUniform()) / Double(count) }
    }
}
