import Stochastics

extension Scenario {
    /// Runs the scenario with seed `seed` (a stream seed). Client i draws everything that concerns it
    /// (permanent errors, Bernoulli failures, network hops, service times, jitter, notification
    /// delays) from its own stream, `taus2` seeded with `streamSeed(seed, i)` (see `ClientStreams`),
    /// so the same seed gives the same report whatever order the clients are handled in. Arrival
    /// times come from a generator of `algorithm`, seeded with `arrivalSeed` when given (so that runs
    /// of several policies face the very same clients), or with `seed`.
    ///
    /// With `requestLog`, each request goes to it as it ends (see ``RequestLog``); the report is the
    /// same with or without one.
    /// - Throws: ``SimulationError/tooManyBuckets(needed:limit:)`` when the run outlasts the load
    ///   timeline's limit; a GSL allocation failure.
    public func run(
        seed: UInt64, arrivalSeed: UInt64? = nil, algorithm: GeneratorAlgorithm = .standard,
        requestLog: (any RequestLog)? = nil
    ) throws -> ScenarioReport {
        try run(
            seed: seed, arrivalSeed: arrivalSeed, algorithm: algorithm, path: ScenarioPath.applicable(to: self).last!,
            requestLog: requestLog)
    }

    /// Runs along `path`, one of ``ScenarioPath/applicable(to:)`` (tests compare them).
    func run(
        seed: UInt64, arrivalSeed: UInt64?, algorithm: GeneratorAlgorithm, path: ScenarioPath,
        requestLog: (any RequestLog)? = nil
    ) throws -> ScenarioReport {
        precondition(
            ScenarioPath.applicable(to: self).contains(path), "the path \(path) does not apply to this scenario")
        let starts = try arrivalTimes(seed: arrivalSeed ?? seed, algorithm: algorithm)
        guard starts.count < ScenarioEvent.maximumClients else { throw SimulationError.tooManyClients(starts.count) }
        switch (path, server) {
        case (.plainHerd, _):
            var run = ScenarioRun<InstantServer, NoLimits>(
                scenario: self, starts: starts, seed: seed, eventOrdered: false, requestLog: requestLog)
            return try run.runPlainHerd(starts)
        case (.clientByClient, _):
            var run = ScenarioRun<InstantServer, NoLimits>(
                scenario: self, starts: starts, seed: seed, eventOrdered: false, requestLog: requestLog)
            return try run.runClientByClient(starts)
        case (.eventOrdered, .alwaysFail), (.eventOrdered, .bernoulli), (.eventOrdered, .outage),
            (.eventOrdered, .trace):
            return try runEventOrdered(InstantServer.self, starts: starts, seed: seed, requestLog)
        case (.eventOrdered, .contention):
            return try runEventOrdered(ContentionServer.self, starts: starts, seed: seed, requestLog)
        case (.eventOrdered, .capacity) where runsReplicaSet && !layers.isEmpty:
            return try runEventOrdered(
                starts: starts, seed: seed, requestLog, ServiceStack<HedgedReplicas<CapacityServer>>.self)
        case (.eventOrdered, .capacity) where runsReplicaSet:
            return try runEventOrdered(starts: starts, seed: seed, requestLog, HedgedReplicas<CapacityServer>.self)
        case (.eventOrdered, .capacity):
            return try runEventOrdered(CapacityServer.self, starts: starts, seed: seed, requestLog)
        case (.eventOrdered, .rateLimit):
            return try runEventOrdered(RateLimitServer.self, starts: starts, seed: seed, requestLog)
        }
    }

    /// An event-ordered run with `Server`, compiled apart with and without shared limits.
    private func runEventOrdered<Server: ModelledServer>(
        _: Server.Type, starts: [Int64], seed: UInt64, _ requestLog: (any RequestLog)?
    ) throws -> ScenarioReport {
        if !layers.isEmpty {
            return try runEventOrdered(starts: starts, seed: seed, requestLog, ServiceStack<Server>.self)
        }
        return try runEventOrdered(starts: starts, seed: seed, requestLog, Server.self)
    }

    private func runEventOrdered<Server: SimulatedServer>(
        starts: [Int64], seed: UInt64, _ requestLog: (any RequestLog)?, _: Server.Type
    ) throws -> ScenarioReport {
        if limits.isEmpty {
            var run = ScenarioRun<Server, NoLimits>(
                scenario: self, starts: starts, seed: seed, eventOrdered: true, requestLog: requestLog)
            return try run.runEventOrdered(starts)
        }
        var run = ScenarioRun<Server, LimitsInForce>(
            scenario: self, starts: starts, seed: seed, eventOrdered: true, requestLog: requestLog)
        return try run.runEventOrdered(starts)
    }

    /// Session start times, drawn before the run from a generator of `algorithm` seeded with `seed`
    /// (made only for arrivals that draw: a burst starts every session at 0).
    func arrivalTimes(seed: UInt64, algorithm: GeneratorAlgorithm) throws -> [Int64] {
        switch arrivals {
        case .burst:
            return [Int64](repeating: 0, count: clients)
        case .uniform(let window):
            let random = try RandomGenerator(algorithm: algorithm, seed: seed)
            // Converted once: a Duration's components cost an Int128 product.
            let width = Double(window.wholeNanoseconds)
            return (0..<clients).map { _ in Int64((random.uniform() * width).rounded(.down)) }.sorted()
        case .poisson(let rate, let duration):
            let random = try RandomGenerator(algorithm: algorithm, seed: seed)
            var times: [Int64] = []
            var time = 0.0
            let end = Double(duration.wholeNanoseconds)
            while true {
                time += random.exponential(mean: 1e9 / rate)
                guard time < end else { return times }
                times.append(Int64(time))
            }
        }
    }
}
