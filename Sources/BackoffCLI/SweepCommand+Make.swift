import Foundation
import RetrySimulation

/// Building a sweep of one command: its grid from the tokens, its points, and the rows each point writes.
extension SweepCommand {
    static func make<Command: BackoffCommand>(
        _ command: Command.Type, tokens: some Collection<ArgumentToken>, terminal: Bool
    ) throws(CommandLineError) -> SweepCommand {
        let sweptSpecs = Command.specs.filter { spec in
            !unsweepable.contains(spec.name) && !LayerOptions.specs.contains { $0.name == spec.name }
        }
        for token in tokens {
            if case .option(let option, _) = token.kind, LayerOptions.specs.contains(where: { $0.name == option }) {
                throw .usage(
                    "'--\(option)' is not available in a sweep: a layer's SPEC holds commas, which a sweep reads as a "
                        + "list of values; search a stack with 'backoff tune' (keys such as layer2.max-attempts), or loop "
                        + "over 'backoff simulate' in the shell", command: name)
            }
            if case .option(let option, _) = token.kind, unsweepable.contains(option),
                !([RunOptions.jobsSpec.name, MemoryLimit.option.name, ProgressLine.option.name]
                    + TableOptions.specs.map(\.name)).contains(option)
            {
                throw .usage(
                    "'--\(option)' is not available in a sweep: a sweep writes one table (use --output)", command: name)
            }
        }
        let options = try ParsedOptions(
            command: name, specs: sweptSpecs + specs, tokens: tokens, helpTopic: name, fillingIn: false)
        var axes: [SweepAxis] = []
        for optionName in options.order where sweptSpecs.contains(where: { $0.name == optionName }) {
            guard !options.spec(optionName).isRepeatable else {
                throw .usage(
                    "'--\(optionName)' may be given several times, so it cannot be a sweep's axis", command: name)
            }
            axes.append(
                try SweepAxis(spec: options.spec(optionName), text: options.givenText(optionName)!, command: name))
        }
        // Jitter is always an axis (one mode per point): the command's default list, innermost, unless given
        // or set by a preset or service config (each point then runs with its own policy's one mode).
        let policyGiven = [PolicyOptions.preset.name, PolicyOptions.grpcServiceConfig.name, PolicyOptions.config.name]
            .contains {
                options.givenText($0) != nil
            }
        if !axes.contains(where: { $0.spec.name == PolicyOptions.jitterName }), !policyGiven,
            let jitter = sweptSpecs.first(where: { $0.name == PolicyOptions.jitterName })
        {
            axes.append(try SweepAxis(spec: jitter, text: jitter.defaultValue!, command: name))
        }
        let grid = try SweepGrid(command: Command.name, specs: Command.specs, axes: axes)
        let forced = try options(Self.force)
        guard grid.pointCount <= SweepAxis.pointLimit || forced else {
            throw .usage(
                "The grid has \(grid.pointCount) points, more than \(SweepAxis.pointLimit): narrow the ranges, or add --force",
                command: name)
        }

        @Sendable func instance(_ index: Int) throws(CommandLineError) -> Command {
            do {
                let options = try ParsedOptions(
                    command: Command.name, specs: Command.specs, given: grid.options(at: index))
                let command = try Command(options)
                // --work-limit holds for every point (its note on stderr is the single command's).
                if Command.specs.contains(WorkLimit.option.spec) {
                    _ = try WorkLimit(options).check(command.simulatedScenarios, command: Command.name)
                }
                return command
            } catch {
                guard case .usage(let message, _) = error else { throw error }
                throw .usage("\(message) (at sweep point \(grid.describe(index)))", command: name)
            }
        }
        // Every point is validated before any runs, so a bad grid writes nothing. Grids of up to
        // 100,000 points keep the validated commands for the run instead of parsing them again, and
        // a point that differs from a kept one in its root seed alone takes that one, reseeded (the
        // same checks, the same estimate: a 2015-study sweep of 19 x 100 points parses 19).
        // The rows kept must fit before any point is built; then the largest point's memory, times
        // the points run at once, with them.
        let limit = try MemoryLimit(options)
        let rows = MemoryEstimate([
            .init(
                parameter: "the sweep's \(MemoryEstimate.count(Double(grid.pointCount))) points",
                what: "a row of about 2 KB each, held until the table is written", bytes: Double(grid.pointCount) * 2048
            )
        ])
        try limit.check(rows, command: name)
        var header: [String] = []
        var validated: [Command] = []
        let keep = grid.pointCount <= 100_000
        if keep { validated.reserveCapacity(grid.pointCount) }
        var largest = MemoryEstimate()
        for index in 0..<grid.pointCount {
            if keep, let first = grid.pointDifferingInSeedOnly(from: index), first < index,
                let seed = grid.seed(at: index), let command = validated[first].reseeded(seed)
            {
                validated.append(command)
                continue
            }
            let command = try instance(index)
            if index == 0 { header = grid.variedAxes.map(\.columnName) + command.header + ["point_id"] }
            if keep { validated.append(command) }
            let estimate = command.memoryEstimate
            if estimate.bytes > largest.bytes { largest = estimate }
        }
        let together = min(try options(Self.jobs) ?? RunOptions.cores, max(1, grid.pointCount))
        try limit.check(largest.times(together, "\(together) points at once") + rows, command: name)
        let commands = validated
        return try SweepCommand(
            grid: grid, header: header, documentation: Command.columns, options: options, terminal: terminal
        ) {
            index throws(CommandLineError) in
            let table = try (keep ? commands[index] : instance(index)).run()
            return grid.variedColumns(at: index) + table.rows[0] + [grid.identity(at: index)]
        }
    }
}
