import Parallelism
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
    /// same with or without one. A run of clients that do not interact (see ``runsClientByClient``)
    /// whose requests outnumber ``exactQuantileLimit`` and go to no log spreads its clients over
    /// `jobs` threads; the report is the same for any number. With `progress`, the run counts its
    /// sessions there as they end (see ``RunProgress``); the report is the same without it. With
    /// ``replications`` above 1, further runs measure the report's standard errors (see
    /// ``StandardErrorMethod``); a burst of interacting clients run once has none (NaN).
    /// - Throws: ``SimulationError/tooManyBuckets(needed:limit:)`` when the run outlasts the load
    ///   timeline's limit; a GSL allocation failure.
    public func run(
        seed: UInt64, arrivalSeed: UInt64? = nil, algorithm: GeneratorAlgorithm = .standard,
        requestLog: (any RequestLog)? = nil, jobs: Int = 1, progress: RunProgress? = nil
    ) throws -> ScenarioReport {
        let path = ScenarioPath.applicable(to: self).last!
        let report = try run(
            seed: seed, arrivalSeed: arrivalSeed, algorithm: algorithm, path: path, requestLog: requestLog, jobs: jobs,
            progress: progress)
        return try measuringStandardErrors(
            of: report, seed: seed, arrivalSeed: arrivalSeed, algorithm: algorithm, path: path, jobs: jobs,
            progress: progress)
    }

    /// Runs along `path`, one of ``ScenarioPath/applicable(to:)`` (tests compare them). A
    /// client-by-client run whose total waits are streamed (beyond `exactQuantileLimit` requests)
    /// and logged nowhere splits its clients over `jobs` threads.
    func run(
        seed: UInt64, arrivalSeed: UInt64?, algorithm: GeneratorAlgorithm, path: ScenarioPath,
        requestLog: (any RequestLog)? = nil, jobs: Int = 1, exactQuantileLimit: Int = Scenario.exactQuantileLimit,
        clientChunk: Int = Scenario.clientChunk, progress: RunProgress? = nil
    ) throws -> ScenarioReport {
        precondition(
            ScenarioPath.applicable(to: self).contains(path), "the path \(path) does not apply to this scenario")
        if path == .clientByClient || path == .plainHerd {
            if case .burst = arrivals {
                return try runClientByClient(
                    BurstStarts(count: clients), plainHerd: path == .plainHerd, seed: seed, requestLog: requestLog,
                    jobs: jobs, exactQuantileLimit: exactQuantileLimit, clientChunk: clientChunk, progress: progress)
            }
            return try runClientByClient(
                DrawnStarts(times: try arrivalTimes(seed: arrivalSeed ?? seed, algorithm: algorithm)),
                plainHerd: path == .plainHerd, seed: seed, requestLog: requestLog, jobs: jobs,
                exactQuantileLimit: exactQuantileLimit, clientChunk: clientChunk, progress: progress)
        }
        let recycles = path == .eventOrdered && recyclesClients
        let starts = try ArrivalSequence(
            self, seed: arrivalSeed ?? seed, algorithm: algorithm, drawsAsItGoes: recycles)
        // A run that keeps a slot per session names each in the 28 bits an event gives a client.
        guard recycles || starts.count < ScenarioEvent.maximumClients else {
            throw SimulationError.tooManyClients(starts.count)
        }
        // Each server model names its machine; the system around it (a replica set, a stack of
        // layers) is composed from the scenario by runEventOrdered.
        switch server {
        case .alwaysFail, .bernoulli, .outage, .trace:
            return try runEventOrdered(
                InstantServer.self, starts: starts, recycles: recycles, seed: seed, requestLog, exactQuantileLimit,
                progress)
        case .contention:
            // Never below layers (validated): its answers travel ahead of the events.
            return try runEventOrdered(
                starts: starts, recycles: recycles, seed: seed, requestLog, exactQuantileLimit, progress,
                ContentionServer.self)
        case .capacity:
            return try runEventOrdered(
                CapacityServer.self, starts: starts, recycles: recycles, seed: seed, requestLog, exactQuantileLimit,
                progress)
        case .component(let component):
            return try component.base.run(
                on: ServerRunner(
                    scenario: self, starts: starts, recycles: recycles, seed: seed, requestLog: requestLog,
                    exactQuantileLimit: exactQuantileLimit, progress: progress))
        }
    }

    /// The clients one after the other (``ScenarioPath/clientByClient``, or its plain herd): in one
    /// run, or when the total waits are streamed and logged nowhere, in chunks of
    /// `clientChunk` spread over `jobs` threads, whose counts merge into the same report to the
    /// bit (every count is an integer, and the streamed waits' sums are exact). One thread runs
    /// the chunks in order on one run, which is the whole run's report, chunk by chunk.
    private func runClientByClient<Starts: SessionStarts>(
        _ starts: Starts, plainHerd: Bool, seed: UInt64, requestLog: (any RequestLog)?, jobs: Int,
        exactQuantileLimit: Int, clientChunk: Int, progress: RunProgress?
    ) throws -> ScenarioReport {
        let scenario = self
        @Sendable func newRun(_ requestLog: (any RequestLog)? = nil) -> ScenarioRun<InstantServer, NoLimits> {
            ScenarioRun(
                scenario: scenario, sessions: starts.count, seed: seed, eventOrdered: false, requestLog: requestLog,
                exactQuantileLimit: exactQuantileLimit)
        }
        @Sendable func run(_ clients: Range<Int>, in run: inout ScenarioRun<InstantServer, NoLimits>) throws {
            if plainHerd {
                try run.runPlainHerd(starts, clients: clients)
            } else {
                try run.runClientByClient(starts, clients: clients)
            }
        }
        var whole = newRun(requestLog)
        let chunks = (starts.count + clientChunk - 1) / clientChunk
        let workers = min(jobs, chunks)
        do {
            if workers > 1, requestLog == nil, !whole.counters.keepsTotalWaits {
                let parts = try ParallelWork.map(workers, jobs: workers) { worker in
                    var part = newRun()
                    defer { part.timeline.deallocate() }
                    for chunk in stride(from: worker, to: chunks, by: workers) {
                        let first = chunk * clientChunk
                        try run(first..<min(first + clientChunk, starts.count), in: &part)
                        progress?.add(min(clientChunk, starts.count - first))
                    }
                    return (part.counters, part.timeline.timeline, part.timeline.overflowed)
                }
                for (counters, timeline, overflowed) in parts {
                    whole.counters.merge(counters)
                    whole.timeline.add(timeline, overflowed: overflowed)
                }
            } else {
                for first in stride(from: 0, to: starts.count, by: clientChunk) {
                    try run(first..<min(first + clientChunk, starts.count), in: &whole)
                    progress?.add(min(clientChunk, starts.count - first))
                }
            }
        } catch {
            // Freed as finish() frees it: a caller that catches the error loses no memory.
            whole.timeline.deallocate()
            throw error
        }
        return try whole.finish()
    }

    /// The clients a thread of a client-by-client run takes at a time.
    static let clientChunk = 1 << 20

    /// An event-ordered run of the system the scenario describes around `Server`, its server
    /// model's machine: composed from the description, not listed by type. The machine serves
    /// behind a replica set where the scenario has one (``runsReplicaSet``: replicas, a hedge, host
    /// faults, a host predicate or outlier detection, which validation allows only where the
    /// machine's work can be withdrawn), and below a stack where it has layers.
    func runEventOrdered<Server: StackableServer>(
        _: Server.Type, starts: ArrivalSequence, recycles: Bool, seed: UInt64, _ requestLog: (any RequestLog)?,
        _ exactQuantileLimit: Int,
        _ progress: RunProgress?
    ) throws -> ScenarioReport {
        if runsReplicaSet, let replica = Server.self as? any WithdrawableServer.Type {
            return try runReplicated(
                replica, starts: starts, recycles: recycles, seed: seed, requestLog, exactQuantileLimit, progress)
        }
        return try runStacked(
            Server.self, starts: starts, recycles: recycles, seed: seed, requestLog, exactQuantileLimit, progress)
    }

    /// ``runEventOrdered(_:starts:recycles:seed:_:_:_:)`` with `Replica`'s machines behind a replica set.
    private func runReplicated<Replica: WithdrawableServer>(
        _: Replica.Type, starts: ArrivalSequence, recycles: Bool, seed: UInt64, _ requestLog: (any RequestLog)?,
        _ exactQuantileLimit: Int, _ progress: RunProgress?
    ) throws -> ScenarioReport {
        try runStacked(
            HedgedReplicas<Replica>.self, starts: starts, recycles: recycles, seed: seed, requestLog,
            exactQuantileLimit, progress)
    }

    /// An event-ordered run with `Server` below the scenario's layers, when it has some; compiled
    /// apart with and without shared limits.
    private func runStacked<Server: StackableServer>(
        _: Server.Type, starts: ArrivalSequence, recycles: Bool, seed: UInt64, _ requestLog: (any RequestLog)?,
        _ exactQuantileLimit: Int, _ progress: RunProgress?
    ) throws -> ScenarioReport {
        if !layers.isEmpty {
            return try runEventOrdered(
                starts: starts, recycles: recycles, seed: seed, requestLog, exactQuantileLimit, progress,
                ServiceStack<Server>.self)
        }
        return try runEventOrdered(
            starts: starts, recycles: recycles, seed: seed, requestLog, exactQuantileLimit, progress, Server.self)
    }

    private func runEventOrdered<Server: SimulatedServer>(
        starts: ArrivalSequence, recycles: Bool, seed: UInt64, _ requestLog: (any RequestLog)?,
        _ exactQuantileLimit: Int,
        _ progress: RunProgress?, _: Server.Type
    ) throws -> ScenarioReport {
        if limits.isEmpty {
            var run = ScenarioRun<Server, NoLimits>(
                scenario: self, sessions: starts.count, seed: seed, eventOrdered: true, recyclesClients: recycles,
                requestLog: requestLog,
                exactQuantileLimit: exactQuantileLimit, progress: progress)
            return try run.runEventOrdered(starts)
        }
        var run = ScenarioRun<Server, LimitsInForce>(
            scenario: self, sessions: starts.count, seed: seed, eventOrdered: true, recyclesClients: recycles,
            requestLog: requestLog,
            exactQuantileLimit: exactQuantileLimit, progress: progress)
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
