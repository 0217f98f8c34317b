import BackoffPolicies
import EventSimulation
import Stochastics

/// N clients make their first attempt at t = 0 against a ``ServerModel`` and retry under one policy:
/// the thundering herd after a failure. Runs on the event engine in exact virtual time.
///
/// One event per attempt; the event is the client's index. At each event the driver records the
/// attempt in the ``LoadTimeline``, asks the server for the outcome and the client for its action,
/// and schedules the next attempt. All randomness (jitter, Bernoulli failures) comes from one
/// generator, consumed in event order, which (time, priority, sequence) makes deterministic.
/// Memory: one 32-byte client per client and at most one pending event per client.
public struct HerdSimulation: Sendable {
    public let clients: Int
    public let server: ServerModel
    public let policy: BackoffPolicy
    /// The load timeline's bucket width, in nanoseconds.
    public let bucketWidth: Int64

    /// The most buckets a timeline may need (8 bytes x 4 counters each).
    public static let maximumBuckets = 50_000_000

    public init(clients: Int, server: ServerModel, policy: BackoffPolicy, bucketWidth: Int64) throws(SimulationError) {
        guard clients >= 1 else { throw .noClients(clients) }
        guard bucketWidth > 0 else { throw .nonPositiveBucket(bucketWidth) }
        try server.validate()
        // Every attempt starts at t = 0 plus a total wait, so the timeline ends by the longest one.
        let horizon = policy.totalWaitRange.upperBound * 1e9
        let buckets = horizon / Double(bucketWidth) + 1
        guard buckets <= Double(Self.maximumBuckets) else {
            throw .tooManyBuckets(needed: buckets, limit: Self.maximumBuckets)
        }
        self.clients = clients
        self.server = server
        self.policy = policy
        self.bucketWidth = bucketWidth
    }

    /// Runs the scenario with a generator of `algorithm` seeded with `seed` (a stream seed).
    public func run(seed: UInt64, algorithm: GeneratorAlgorithm = .standard) throws -> HerdReport {
        var random = try RandomGenerator(algorithm: algorithm, seed: seed)
        return run(using: &random)
    }

    /// Runs the scenario drawing from `random`.
    public func run<Random: UniformSource>(using random: inout Random) -> HerdReport {
        let policy = policy
        let server = server
        var population = [SimulatedClient](repeating: SimulatedClient(policy: policy), count: clients)
        var totalWaits = [Double](repeating: 0, count: clients)
        var timeline = LoadTimeline(bucketWidth: bucketWidth)
        var attempts = 0
        var successes = 0
        var completionSum: Int64 = 0
        var attemptSquares = 0

        var simulation = Simulation<Int32>()
        simulation.reserveCapacity(clients)
        for index in 0..<clients { simulation.schedule(Int32(index), at: .zero) }
        simulation.run { simulation, client in
            let index = Int(client)
            let now = simulation.now
            let outcome = server.outcome(at: now, using: &random)
            timeline.record(at: now, isRetry: population[index].isRetrying, outcome: outcome)
            attempts += 1
            switch population[index].attemptAnswered(outcome, at: now, policy: policy, using: &random) {
            case .retry(let next):
                simulation.schedule(client, at: next)
            case .succeed, .giveUp:
                if outcome == .success { successes += 1 }
                completionSum += now.nanoseconds
                let made = population[index].backoff.attempts
                attemptSquares += made * made
                totalWaits[index] = Double(population[index].backoff.totalWait) / 1e9
            }
        }
        let meanAttempts = Double(attempts) / Double(clients)
        let attemptsVariance = (Double(attemptSquares) - Double(clients) * meanAttempts * meanAttempts) / Double(clients - 1)
        return HerdReport(
            clients: clients,
            attempts: attempts,
            attemptsStandardError: clients > 1 ? (max(0, attemptsVariance) / Double(clients)).squareRoot() : .nan,
            successes: successes,
            totalWait: Summary(totalWaits, quantiles: [0.5, 0.99]),
            meanCompletion: Double(completionSum) / Double(clients) / 1e9,
            timeline: timeline
        )
    }
}
