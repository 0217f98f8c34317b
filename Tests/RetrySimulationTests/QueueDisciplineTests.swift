import BackoffPolicies
import EventSimulation
import Testing

@testable import RetrySimulation

/// The capacity server's queue disciplines (``QueueDiscipline``): LIFO and adaptive LIFO against
/// the M/M/1 queue's closed forms, every discipline's order and sheds on a burst worked out by
/// hand, and the degenerate parameters that make each the FIFO queue to the bit.
@Suite struct QueueDisciplineTests {
    /// One worker, `service`, a queue of `queue` places, one attempt per request, no timeout
    /// unless given.
    static func scenario(
        _ discipline: QueueDiscipline, clients: Int = 1, arrivals: Arrivals, service: ServiceTime,
        queue: Int = 100_000_000, timeout: Duration? = nil, attempts: Int = 1
    ) throws -> Scenario {
        let policy = try BackoffPolicy(base: .milliseconds(5), jitter: .full, budget: .maxAttempts(attempts))
        let model = CapacityModel(workers: 1, serviceTime: service, queueLimit: queue, queueDiscipline: discipline)
        return try Scenario(
            clients: clients, server: .capacity(model), policy: policy, bucketWidth: .seconds(1), arrivals: arrivals,
            attemptTimeout: timeout)
    }

    static func responseTimes(_ scenario: Scenario, seed: UInt64) throws -> [Double] {
        let log = RequestLogTests.Collected()
        _ = try scenario.run(seed: seed, requestLog: log)
        return log.records.map(RequestLogTests.elapsed)
    }

    /// M/M/1 at λ = 50/s, μ = 100/s (ρ = 1/2). The response time's mean is 1/(μ − λ) = 20 ms under
    /// FIFO, LIFO and adaptive LIFO alike (none looks at a service time). Its second moment is
    /// E[W²] + 2 E[W] E[S] + E[S²], with E[W] = ρ/(μ(1 − ρ)) = 10 ms, E[S] = 10 ms, E[S²] = 2/μ²,
    /// and E[W²] = 2ρ/(μ²(1 − ρ)²) under FIFO (8e-4 s² in all, T being exponential of rate 50)
    /// but 2ρ/(μ²(1 − ρ)³) under LIFO (a wait is a busy period begun by the residual service;
    /// 1.2e-3 s² in all). Each moment is measured over 16 independent runs of 300 s (about 15,000
    /// requests each): the runs are independent where one run's requests are not, so the standard
    /// error is the runs' sd / √16, and their mean lies within t(15, 0.9995) = 4.07 of them unless
    /// the model is wrong (a false alarm once in 1,000 per moment). The runs start empty: the
    /// queue relaxes in about 1/(μ(1 − √ρ)²) = 0.12 s, a bias below 0.1 % of 300 s.
    @Test(
        arguments: [
            (.fifo, 8e-4), (.lifo, 1.2e-3), (.adaptiveLIFO(interval: .milliseconds(30)), nil),
        ] as [(QueueDiscipline, Double?)])
    func theMM1MomentsMatchTheClosedForms(discipline: QueueDiscipline, secondMoment: Double?) throws {
        let scenario = try Self.scenario(
            discipline, arrivals: .poisson(ratePerSecond: 50, duration: .seconds(300)),
            service: .exponential(mean: .milliseconds(10)))
        var runs: [(mean: Double, square: Double)] = []
        for seed in SixteenRuns.seeds {
            let times = try Self.responseTimes(scenario, seed: seed)
            let count = Double(times.count)
            runs.append((times.reduce(0, +) / count, times.reduce(0) { $0 + $1 * $1 } / count))
        }
        var checks = [("mean", runs.map(\.mean), 0.02)]
        if let secondMoment { checks.append(("second moment", runs.map(\.square), secondMoment)) }
        for (name, values, expected) in checks {
            SixteenRuns.expectMean(values, near: expected, "\(discipline), \(name)")
        }
    }

    /// 50 requests at once, one worker taking 10 ms each, so the queue forms at 0 and stands: the
    /// worker is free at 10, 20, ... ms. Each discipline's completion times, worked out by hand.
    @Test func aBurstIsServedInTheDisciplinesOrder() throws {
        func completions(_ discipline: QueueDiscipline) throws -> ([Int64: Int64], ScenarioReport) {
            let scenario = try Self.scenario(
                discipline, clients: 50, arrivals: .burst, service: .deterministic(.milliseconds(10)))
            let log = RequestLogTests.Collected()
            let report = try scenario.run(seed: 1, requestLog: log)
            let pairs = log.records.map { (Int64($0.client), $0.completion.nanoseconds / 1_000_000) }
            return (Dictionary(uniqueKeysWithValues: pairs), report)
        }
        let clients = Int64(0)..<50
        // FIFO: client c ends at 10 (c + 1) ms.
        let (fifo, _) = try completions(.fifo)
        #expect(fifo == Dictionary(uniqueKeysWithValues: clients.map { ($0, 10 * ($0 + 1)) }))
        // LIFO: client 0 is served at once, then the newest first: client c ≥ 1 ends at 510 − 10c.
        let (lifo, _) = try completions(.lifo)
        #expect(lifo == Dictionary(uniqueKeysWithValues: clients.map { ($0, $0 == 0 ? 10 : 510 - 10 * $0) }))
        // Adaptive LIFO (100 ms): FIFO up to 100 ms, when the queue has stood for the interval
        // (clients 1 to 10 start at 10 to 100 ms); then the newest first, client 49 at 110 ms.
        let (adaptive, _) = try completions(.adaptiveLIFO(interval: .milliseconds(100)))
        #expect(
            adaptive == Dictionary(uniqueKeysWithValues: clients.map { ($0, $0 <= 10 ? 10 * ($0 + 1) : 610 - 10 * $0) })
        )
        // CoDel (5 ms, 100 ms): up to 100 ms an attempt may wait 100 ms, so clients 1 to 10 are
        // served; at 110 ms the queue has stood longer than the interval, and every attempt left
        // has waited 110 ms > 5 ms: all 39 are shed then, each answered with a failure.
        let (codel, report) = try completions(.controlledDelay(target: .milliseconds(5), interval: .milliseconds(100)))
        #expect(codel == Dictionary(uniqueKeysWithValues: clients.map { ($0, $0 <= 10 ? 10 * ($0 + 1) : 110) }))
        #expect(report.successes == 11 && report.rejected == 39 && report.giveUps == 39, "\(report)")
        #expect(report.peakQueue == 49)
    }

    /// A discipline whose interval outlasts the run never switches and never sheds: its report is
    /// FIFO's, to the bit, through retries, timeouts and a full queue.
    @Test func disciplinesThatNeverActAreFIFO() throws {
        func report(_ discipline: QueueDiscipline) throws -> ScenarioReport {
            try Self.scenario(
                discipline, arrivals: .poisson(ratePerSecond: 150, duration: .seconds(20)),
                service: .exponential(mean: .milliseconds(10)), queue: 50, timeout: .milliseconds(80), attempts: 4
            ).run(seed: 11)
        }
        let fifo = try report(.fifo)
        #expect(fifo.rejected > 0 && fifo.timeouts > 0, "seed 11: the run must overload")
        let hour = Duration.seconds(3600)
        #expect(try report(.adaptiveLIFO(interval: hour)) == fifo)
        #expect(try report(.controlledDelay(target: hour, interval: hour)) == fifo)
    }

    /// Sheds meet callers that stopped waiting, hedges and layers. An attempt shed after its
    /// caller timed out is dropped unanswered (counted in expired_drops, as a deadline check
    /// counts it): with a timeout of 20 ms below the 50 ms an attempt may wait, every shed is
    /// one. Every request still ends once.
    @Test func shedsEndEveryRequestBehindHedgesAndLayers() throws {
        let timedOut = try Self.scenario(
            .controlledDelay(target: .milliseconds(50), interval: .milliseconds(100)),
            arrivals: .poisson(ratePerSecond: 150, duration: .seconds(20)),
            service: .exponential(mean: .milliseconds(10)), timeout: .milliseconds(20), attempts: 3
        ).run(seed: 5)
        #expect(timedOut.expiredDrops > 0 && timedOut.rejected == 0, "seed 5: \(timedOut.expiredDrops) drops")
        #expect(timedOut.successes + timedOut.giveUps == timedOut.uniqueRequests, "seed 5")

        let codel = QueueDiscipline.controlledDelay(target: .milliseconds(5), interval: .milliseconds(20))

        let policy = try BackoffPolicy(base: .milliseconds(5), jitter: .full, budget: .maxAttempts(3))
        func server(replicas: Int) -> ServerModel {
            .capacity(
                CapacityModel(
                    workers: 1, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 1_000,
                    replicas: replicas, queueDiscipline: codel))
        }
        let arrivals = Arrivals.poisson(ratePerSecond: 300, duration: .seconds(10))
        let hedged = try Scenario(
            clients: 1, server: server(replicas: 2), policy: policy, bucketWidth: .milliseconds(100),
            arrivals: arrivals, attemptTimeout: .milliseconds(40),
            hedging: Hedging(delay: .milliseconds(5), copies: 2, cancelsLosers: false))
        let layered = try Scenario(
            clients: 1, server: server(replicas: 1), policy: policy, bucketWidth: .milliseconds(100),
            arrivals: arrivals, layers: [try ServiceLayer(name: "api", policy: policy, timeout: .milliseconds(30))])
        for (name, scenario) in [("hedged", hedged), ("layered", layered)] {
            let report = try scenario.run(seed: 9)
            #expect(report.rejected > 0, "\(name), seed 9: nothing shed")
            #expect(report.successes + report.giveUps == report.uniqueRequests, "\(name), seed 9")
        }
    }

    /// Brooker's metastable overload, shortened: capacity drops to 30 % for 2 s under 800
    /// requests a second that retry up to 10 times. FIFO serves stale work long after the drop
    /// (most requests fail); LIFO and CoDel answer the fresh callers and recover.
    @Test func lifoAndControlledDelayRecoverWhereFIFOCollapses() throws {
        func successes(_ discipline: QueueDiscipline) throws -> Int {
            let policy = try BackoffPolicy(base: .milliseconds(10), jitter: .full, budget: .maxAttempts(10))
            let model = CapacityModel(
                workers: 4, serviceTime: .deterministic(.milliseconds(4)), queueLimit: 1_000,
                degradation: .init(start: .init(.seconds(5)), end: .init(.seconds(7)), fraction: 0.3),
                queueDiscipline: discipline)
            return try Scenario(
                clients: 1, server: .capacity(model), policy: policy, bucketWidth: .milliseconds(100),
                arrivals: .poisson(ratePerSecond: 800, duration: .seconds(30)), attemptTimeout: .milliseconds(200)
            ).run(seed: 1).successes
        }
        let fifo = try successes(.fifo)
        for discipline in [
            QueueDiscipline.lifo, .controlledDelay(target: .milliseconds(5), interval: .milliseconds(100)),
        ] {
            let recovered = try successes(discipline)
            #expect(recovered > 4 * fifo, "seed 1, \(discipline): \(recovered) successes against FIFO's \(fifo)")
        }
    }

    @Test func parametersOutOfRangeAreRefused() {
        let bad: [QueueDiscipline] = [
            .adaptiveLIFO(interval: .zero), .controlledDelay(target: .zero, interval: .seconds(1)),
            .controlledDelay(target: .seconds(2), interval: .seconds(1)),
            .controlledDelay(target: .milliseconds(5), interval: .seconds(1 << 40)),
        ]
        for discipline in bad {
            let model = CapacityModel(
                workers: 1, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 10,
                queueDiscipline: discipline)
            #expect(throws: SimulationError.invalidQueueDiscipline(discipline)) {
                try Scenario(
                    clients: 1, server: .capacity(model), policy: try BackoffPolicy(), bucketWidth: .seconds(1))
            }
        }
    }
}
