import Foundation
import Stochastics

/// Options of the commands that draw random numbers: the root seed, the generator and the threads.
struct RunOptions {
    /// The documented default root seed.
    static let defaultSeed: UInt64 = 2015

    private(set) var seed: UInt64
    let generator: GeneratorAlgorithm
    let jobs: Int

    static let seedOption = Option(
        "seed", "integer", kind: .count, default: String(defaultSeed),
        form: "a whole number from 0 to 18446744073709551615",
        help: "Root seed; each jitter mode's stream seed is derived from it (see 'How the numbers are checked').",
        parse: Parsers.form { ValueParser.isDigits($0) ? UInt64($0) : nil }
    ).grouped(.output)
    static let generatorOption = Option(
        "generator", "name", default: GeneratorAlgorithm.standard.rawValue, form: "one of mt19937, taus2, ranlxd2",
        help: "GSL generator: mt19937, taus2 or ranlxd2.", choices: GeneratorAlgorithm.self
    ).grouped(.output)
    static let jobsOption = Option<Int?>.optional(
        "jobs", "count", kind: .count, form: Parsers.countForm(jobsRange, example: 2),
        help: "Threads (the output is identical for every value). Default: the number of cores.",
        parse: Parsers.count(in: jobsRange)
    ).grouped(.output)
    /// Threads a run or a sweep may use.
    static let jobsRange = 1...1024

    static let seedSpecs = [seedOption.spec, generatorOption.spec]
    static let jobsSpec = jobsOption.spec

    /// The cores this process may use, read once (Foundation reads cgroup files at every call,
    /// which a sweep that parses a million points would notice).
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    init(_ options: ParsedOptions) throws(CommandLineError) {
        seed = try options(Self.seedOption)
        generator = try options(Self.generatorOption)
        jobs = options.specs.contains { $0.name == Self.jobsSpec.name } ? try options(Self.jobsOption) ?? Self.cores : 1
    }

    /// The same options with root seed `seed`.
    func reseeded(_ seed: UInt64) -> RunOptions {
        var options = self
        options.seed = seed
        return options
    }
}
