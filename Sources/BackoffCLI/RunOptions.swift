import Foundation
import Stochastics

/// Options of the commands that draw random numbers: the root seed, the generator and the threads.
struct RunOptions {
    /// The documented default root seed.
    static let defaultSeed: UInt64 = 2015

    let seed: UInt64
    let generator: GeneratorAlgorithm
    let jobs: Int

    static let seedSpecs: [OptionSpec] = [
        OptionSpec(
            name: "seed", valueName: "integer",
            help: "Root seed; each jitter mode's stream seed is derived from it (see README, Determinism).",
            defaultValue: String(defaultSeed), form: "a whole number from 0 to 18446744073709551615"),
        OptionSpec(
            name: "generator", valueName: "name", help: "GSL generator: mt19937, taus2 or ranlxd2.",
            defaultValue: GeneratorAlgorithm.standard.rawValue, form: "one of mt19937, taus2, ranlxd2"),
    ]

    static let jobsSpec = OptionSpec(
        name: "jobs", valueName: "count",
        help: "Threads (the output is identical for every value). Default: the number of cores.",
        defaultValue: nil, form: "a whole number >= 1")

    /// The cores this process may use, read once (Foundation reads cgroup files at every call,
    /// which a sweep that parses a million points would notice).
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    init(_ options: ParsedOptions) throws(CommandLineError) {
        seed = try options.required("seed") { UInt64($0) }
        generator = try options.required("generator") { GeneratorAlgorithm(rawValue: $0) }
        let cores = Self.cores
        jobs = options.specs.contains(Self.jobsSpec)
            ? try options.value("jobs", ValueParser.integer, where: { $0 >= 1 }) ?? cores : 1
    }
}

extension OptionSpec {
    static let output = OptionSpec(
        name: "output", valueName: "file", help: "Write the table to this file (atomically) instead of stdout.",
        defaultValue: nil, form: "a file path")
}
