import Foundation
import Parallelism
import Stochastics

extension TuneCommand {
    /// One evaluated candidate: its simulate row, by column.
    typealias Evaluation = SearchEvaluation<[String: String]>

    /// The search the options describe, its design drawn from its own stream of the root seed.
    var constrainedSearch: ConstrainedSearch {
        ConstrainedSearch(
            space: searched.space, objective: objectiveColumn, maximizing: maximizing, constraints: constraints,
            designPoints: designPoints, seed: SeedDerivation.streamSeed(root: seed, stream: 0x7E5E))
    }

    /// Runs the search and writes the table; returns the exit status (0, or 1 when no candidate is
    /// feasible or the best one fails on a fresh seed).
    func run(standardOutput: inout some TextOutputStream, standardError: inout some TextOutputStream)
        throws(CommandLineError) -> Int32
    {
        try tableOutput.check(header: table([], pareto: []).header, columns: SimulateCommand.columns)
        let output = try outputPath.map { path throws(CommandLineError) in try AtomicFileWriter(path: path) }
        let base = scenarioOptions + [(RunOptions.seedOption.name, String(seed)), (RunOptions.jobsOption.name, "1")]
        let result: SearchResult<[String: String]>
        do throws(SearchFailure<CommandLineError>) {
            result = try constrainedSearch.run { (candidates) throws(CommandLineError) in
                let given = candidates.map { base + searched.options($0) }
                do {
                    return try ParallelWork.map(given.count, jobs: jobs) { index in try Self.simulate(given[index]) }
                } catch let error as CommandLineError {
                    throw error
                } catch {
                    throw .failure("\(error)")
                }
            } measure: { row, column in
                row[column].flatMap(Double.init)
            } phaseEnded: { phase, result in
                switch phase {
                case .design:
                    standardError.write(
                        "tune: design: \(result.evaluations.count) candidates, \(result.feasibleCount) feasible\n")
                case .refine:
                    standardError.write("tune: refined: \(result.evaluations.count) candidates in all\n")
                }
            }
        } catch {
            switch error {
            case .evaluation(let error): throw error
            case .generator(let error): throw .failure("\(error)")
            case .simplex(let error): throw .failure("the simplex failed: \(error)")
            }
        }

        // The table, the best feasible candidate first.
        let best = result.best
        let ordered = (best.map { [$0] } ?? []) + result.evaluations.filter { $0.index != best?.index }
        let table = self.table(ordered, pareto: result.paretoFront)
        let text = try tableOutput.text(of: table, columns: SimulateCommand.columns)
        try output.deliver(text, orTo: &standardOutput)

        // The answer, re-run on a fresh seed.
        guard let best else {
            let message =
                result.closestConstraint.map { constraint, nearest in
                    "; the closest to holding is \(constraint.text) (best value \(nearest.map(CSVFormat.number) ?? "none"))"
                } ?? ""
            standardError.write("tune: no candidate satisfies every constraint\(message)\n")
            return 1
        }
        let freshSeed = SeedDerivation.streamSeed(root: seed, stream: 0xF4E5)
        let check = try Self.simulate(
            scenarioOptions + searched.options(best.candidate) + [
                (RunOptions.seedOption.name, String(freshSeed)), (RunOptions.jobsOption.name, "1"),
            ])
        let holds = constraints.allSatisfy { $0.relativeViolation(check[$0.measure].flatMap(Double.init)) == 0 }
        let report = constraints.map { "\($0.measure) \(check[$0.measure] ?? "") (\($0.text))" }.joined(separator: ", ")
        standardError.write(
            "tune: best: candidate \(best.index), \(objectiveColumn) \(best.outcome[objectiveColumn] ?? ""); on a fresh seed (\(freshSeed)) "
                + "\(objectiveColumn) \(check[objectiveColumn] ?? "")"
                + (constraints.isEmpty
                    ? "\n" : ", and the constraints \(holds ? "still hold" : "DO NOT hold"): \(report)\n"))
        return holds ? 0 : 1
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
        let searchedOptions = searched.space.names.filter { !covered.contains($0) }
        var measured: [String] = [objectiveColumn]
        for constraint in constraints where !measured.contains(constraint.measure) {
            measured.append(constraint.measure)
        }
        var table = CSVTable(
            header: ["candidate", "phase"] + policyColumns + searchedOptions + measured + ["feasible", "pareto"])
        for evaluation in evaluations {
            let row = evaluation.outcome
            let values = searched.texts(evaluation.candidate)
            table.append(
                [String(evaluation.index), evaluation.phase.rawValue] + policyColumns.map { row[$0] ?? "" }
                    + searchedOptions.map { values[$0] ?? "" } + measured.map { row[$0] ?? "" }
                    + [evaluation.isFeasible ? "yes" : "no", pareto.contains(evaluation.index) ? "yes" : "no"])
        }
        return table
    }
}
