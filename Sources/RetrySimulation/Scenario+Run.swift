import Stochastics

extension Scenario {
    /// Runs the scenario with a generator of `algorithm` seeded with `seed` (a stream seed). All
    /// randomness (permanent errors, failures, network hops, service times, jitter, notification
    /// delays) comes from that one generator in event order, which (time, priority, sequence) fixes,
    /// so the same seed gives the same report. Arrival times come from their own generator when
    /// `arrivalSeed` is given, so that runs of several policies can face the very same arrivals
    /// (common random numbers); otherwise from the main one, drawn before the first event.
    /// - Throws: ``SimulationError/tooManyBuckets(needed:limit:)`` when the run outlasts the load
    ///   timeline's limit; a GSL allocation failure.
    public func run(seed: UInt64, arrivalSeed: UInt64? = nil, algorithm: GeneratorAlgorithm = .standard) throws -> ScenarioReport {
        let random = try RandomGenerator(algorithm: algorithm, seed: seed)
        let arrivals = try arrivalSeed.map { try RandomGenerator(algorithm: algorithm, seed: $0) } ?? random
        var run = ScenarioRun(scenario: self, random: random)
        return try run.run(arrivalTimes: run.arrivalTimes(using: arrivals))
    }
}
