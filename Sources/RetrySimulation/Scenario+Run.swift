import Stochastics

extension Scenario {
    /// Runs the scenario with seed `seed` (a stream seed). Client i draws everything that concerns it
    /// (permanent errors, Bernoulli failures, network hops, service times, jitter, notification
    /// delays) from its own stream, `taus2` seeded with `streamSeed(seed, i)` (see ``ClientStreams``),
    /// so the same seed gives the same report whatever order the clients are handled in. Arrival
    /// times come from a generator of `algorithm`, seeded with `arrivalSeed` when given (so that runs
    /// of several policies face the very same clients), or with `seed`.
    /// - Throws: ``SimulationError/tooManyBuckets(needed:limit:)`` when the run outlasts the load
    ///   timeline's limit; a GSL allocation failure.
    public func run(seed: UInt64, arrivalSeed: UInt64? = nil, algorithm: GeneratorAlgorithm = .standard) throws -> ScenarioReport {
        try run(seed: seed, arrivalSeed: arrivalSeed, algorithm: algorithm, queued: false)
    }

    /// `queued` forces the event engine for servers that answer at once (tests compare the two).
    func run(seed: UInt64, arrivalSeed: UInt64?, algorithm: GeneratorAlgorithm, queued: Bool) throws -> ScenarioReport {
        let starts = ScenarioRun.arrivalTimes(of: self, using: try RandomGenerator(algorithm: algorithm, seed: arrivalSeed ?? seed))
        var run = ScenarioRun(scenario: self, clients: starts.count, seed: seed, queued: queued)
        return try run.run(arrivalTimes: starts)
    }
}
