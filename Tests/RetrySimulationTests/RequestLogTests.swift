import BackoffPolicies
import EventSimulation
import Testing

@testable import RetrySimulation

/// A run's per-request records (``RequestLog``): the report does not move when a log listens, every
/// path gives the same records, and the records add up to the report's own tallies.
@Suite struct RequestLogTests {
    /// Keeps every record, in the order the run sent them.
    final class Collected: RequestLog {
        var records: [RequestRecord] = []
        func requestEnded(_ request: RequestRecord) { records.append(request) }
    }

    static func elapsed(_ record: RequestRecord) -> Double {
        Double(record.completion.nanoseconds - record.start.nanoseconds) / 1e9
    }

    static func byRequest(_ records: [RequestRecord]) -> [RequestRecord] {
        records.sorted { ($0.client, $0.request) < ($1.client, $1.request) }
    }

    static func run(_ scenario: Scenario, seed: UInt64, path: ScenarioPath) throws -> (ScenarioReport, [RequestRecord])
    {
        let log = Collected()
        let report = try scenario.run(seed: seed, arrivalSeed: nil, algorithm: .standard, path: path, requestLog: log)
        return (report, log.records)
    }

    /// The records against the report: one a request, each outcome counted once, and means that are
    /// the report's means (summed in another order, so to a relative 1e-12).
    static func expectAgreement(
        _ records: [RequestRecord], _ report: ScenarioReport, _ context: String
    ) {
        #expect(records.count == report.uniqueRequests, "\(context): \(records.count) records")
        #expect(Set(records.map { [$0.client, $0.request] }).count == records.count, "\(context): a request twice")
        let count = { (outcome: RequestOutcome) in records.count { $0.outcome == outcome } }
        #expect(count(.succeeded) == report.successes, "\(context)")
        #expect(count(.gaveUp) == report.giveUps, "\(context)")
        #expect(count(.permanentFailure) == report.permanentFailures, "\(context)")
        #expect(count(.deadlineExceeded) == report.deadlineExceeded, "\(context)")
        // With a hedge the report counts each copy the clients sent as an attempt. Without one a
        // record counts its attempts a breaker or throttle refused before they left the client too.
        if report.hedge == nil {
            let made = records.reduce(0) { $0 + $1.attempts }
            #expect(made == report.clientAttempts + report.localRejections, "\(context)")
        } else {
            #expect(records.reduce(0) { $0 + $1.copies } == report.clientAttempts, "\(context)")
        }
        #expect(records.allSatisfy { $0.completion >= $0.start && $0.attempts >= 1 }, "\(context)")
        let n = Double(records.count)
        let completion = records.reduce(0.0) { $0 + Self.elapsed($1) } / n
        let wait = records.reduce(0.0) { $0 + Double($1.totalWait.wholeNanoseconds) / 1e9 } / n
        #expect(abs(completion - report.meanCompletion) <= 1e-12 * max(1, report.meanCompletion), "\(context)")
        #expect(abs(wait - report.totalWait.mean) <= 1e-12 * max(1, report.totalWait.mean), "\(context)")
        let last = records.map(\.completion).max()!
        #expect(abs(last.seconds - report.lastCompletion) <= 1e-12 * max(1, report.lastCompletion), "\(context)")
    }

    /// Along every path that applies, for every scenario the engines are compared on: the report is
    /// the one a run without a log gives, and the records, in request order, are the same records.
    @Test(arguments: 0..<EngineAgreementTests.scenarios.count)
    func everyPathLogsTheSameRequests(case index: Int) throws {
        let (name, make) = EngineAgreementTests.scenarios[index]
        let scenario = try make()
        let seed: UInt64 = 20_261_202
        var reference: [RequestRecord]?
        for path in ScenarioPath.applicable(to: scenario) {
            let (report, records) = try Self.run(scenario, seed: seed, path: path)
            let unlogged = try scenario.run(seed: seed, arrivalSeed: nil, algorithm: .standard, path: path)
            #expect(report == unlogged, "\(name), \(path), seed \(seed): a log moved the report")
            Self.expectAgreement(records, report, "\(name), \(path), seed \(seed)")
            #expect(records.allSatisfy { $0.copies == $0.attempts }, "\(name): copies without a hedge")
            if let reference {
                #expect(Self.byRequest(records) == reference, "\(name), \(path), seed \(seed)")
            } else {
                reference = Self.byRequest(records)
            }
        }
    }

    /// Through the event queue the records come in completion order, which the CSV's users read as
    /// time order.
    @Test func theEventQueueLogsInCompletionOrder() throws {
        let scenario = try EngineAgreementTests.scenarios[1].1()
        let (_, records) = try Self.run(scenario, seed: 7, path: .eventOrdered)
        #expect(zip(records, records.dropFirst()).allSatisfy { $0.completion <= $1.completion })
    }

    /// A hedge's copies: each record counts its own, they add up to the hedge's tally, and each
    /// request's response time is its completion less its start.
    @Test func aHedgedRunLogsEachRequestsCopies() throws {
        let seed: UInt64 = 20_130_226
        let scenario = try HedgedReplicasTests.scenario(
            clients: 2000, replicas: 3, workers: 2, queue: 50,
            service: .lognormal(mean: .milliseconds(30), standardDeviation: .milliseconds(40)),
            hedge: try Hedging(delay: .milliseconds(40), copies: 3), permanent: 0.05,
            arrivals: .poisson(ratePerSecond: 100, duration: .seconds(20)))
        let (report, records) = try Self.run(scenario, seed: seed, path: .eventOrdered)
        #expect(report == (try scenario.run(seed: seed)), "seed \(seed): a log moved the report")
        let tally = try #require(report.hedge)
        Self.expectAgreement(records, report, "hedged, seed \(seed)")
        #expect(records.reduce(0) { $0 + $1.copies } == tally.copies, "seed \(seed)")
        #expect(records.contains { $0.copies > 1 } && records.allSatisfy { (1...3).contains($0.copies) })
        let responses = records.map(Self.elapsed).reduce(0, +) / Double(records.count)
        #expect(abs(responses - tally.responses.mean) <= 1e-12, "seed \(seed): \(responses)")
    }

    /// Below a stack of layers the clients' requests are logged as they end, deadlines included.
    @Test func aLayeredRunLogsTheClientsRequests() throws {
        let capacity = CapacityModel(workers: 4, serviceTime: .exponential(mean: .milliseconds(50)), queueLimit: 10)
        let layer = try ServiceLayer(
            name: "api", policy: ServiceStackTests.policy(3), timeout: .milliseconds(150))
        let scenario = try Scenario(
            clients: 600, server: .capacity(capacity), policy: ServiceStackTests.policy(3),
            bucketWidth: .milliseconds(100), arrivals: .poisson(ratePerSecond: 200, duration: .seconds(3)),
            layers: [layer], deadline: .milliseconds(400))
        let (report, records) = try Self.run(scenario, seed: 11, path: .eventOrdered)
        Self.expectAgreement(records, report, "layered, seed 11")
        #expect(report.deadlineExceeded > 0, "the deadline never bound: the test shows nothing of it")
    }
}
