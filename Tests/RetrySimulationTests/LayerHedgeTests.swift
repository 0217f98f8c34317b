import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// A stack's bottom layer hedging its attempts to the server's replicas (``ServiceLayer/hedging``,
/// `HedgedReplicas` below `ServiceStack`): timelines by hand, the layer's limits granting copies,
/// and the closed forms where no copy waits.
@Suite struct LayerHedgeTests {
    static let seed: UInt64 = 20_261_202
    static let fixed100ms = ServiceTime.deterministic(.milliseconds(100))

    static func stack(
        clients: Int = 1, replicas: Int = 2, workers: Int = 1, queue: Int = 10, service: ServiceTime = fixed100ms,
        bottom: ServiceLayer, above: [ServiceLayer] = [], clientTimeout: Duration? = nil
    ) throws -> Scenario {
        try Scenario(
            clients: clients,
            server: .capacity(
                CapacityModel(workers: workers, serviceTime: service, queueLimit: queue, replicas: replicas)),
            policy: try BackoffPolicy(budget: .maxAttempts(1)), bucketWidth: .milliseconds(10),
            attemptTimeout: clientTimeout, layers: above + [bottom])
    }

    static func layer(
        _ name: String = "db", attempts: Int = 1, timeout: Duration? = nil, limits: RetryLimits = RetryLimits(),
        hedge: Hedging?
    ) throws -> ServiceLayer {
        try ServiceLayer(
            name: name, policy: try BackoffPolicy(jitter: .disabled, budget: .maxAttempts(attempts)), limits: limits,
            timeout: timeout, hedging: hedge)
    }

    /// Below two layers, the bottom one's attempt goes as copy 1 at 0 and copy 2 at 30 ms to the
    /// other replica; copy 1 answers at 100 ms and copy 2 is cancelled (70 ms of work): the same
    /// timeline as a client's hedge, passed up through both layers.
    @Test func theBottomLayersAttemptIsHedged() throws {
        let scenario = try Self.stack(
            bottom: try Self.layer(hedge: try Hedging(delay: .milliseconds(30), copies: 2)),
            above: [try Self.layer("api", hedge: nil)])
        let report = try scenario.run(seed: Self.seed)
        let tally = try #require(report.hedge)
        #expect(report.attempts == 2 && report.successes == 1 && report.clientAttempts == 1)
        #expect(report.layers.map(\.attempts) == [1, 1] && report.layers.map(\.successes) == [1, 1])
        #expect(tally.requests == 1 && tally.copies == 2 && tally.withdrawn == 1)
        #expect(abs(tally.work - 0.17) < 1e-12 && tally.responses.mean == 0.1)
        #expect(report.lastCompletion == 0.1)
    }

    /// The layer's per-try timeout ends its wait for a hedged attempt: with a 20 ms timeout and a
    /// 30 ms hedge delay, no second copy goes, and the layer's retry (2 attempts, no wait) is a new
    /// call, hedged in turn. Copy 1 of each attempt runs on (no cancellation reaches it): the
    /// server serves 2 attempts, both for nobody.
    @Test func aLayersPerTryTimeoutStopsTheCopies() throws {
        let scenario = try Self.stack(
            bottom: try Self.layer(
                attempts: 2, timeout: .milliseconds(20), hedge: try Hedging(delay: .milliseconds(30), copies: 2)))
        let report = try scenario.run(seed: Self.seed)
        let tally = try #require(report.hedge)
        #expect(tally.requests == 2 && tally.copies == 2, "\(tally.requests) calls, \(tally.copies) copies")
        #expect(report.layers[0].timeouts == 2 && report.giveUps == 1)
        #expect(report.wastedWork == 2 && report.orphanedAttempts == 2)
    }

    /// The bottom layer's budget grants each copy after the first as a retry (as `--budget` does
    /// for a client's hedge): the token-bucket case of `HedgedReplicasTests`, one layer down. One
    /// worker, no queue, 1 s of service, ten clients, two copies at once, a bucket of 10 tokens:
    /// 13 copies, 7 refused; without the budget, 20.
    @Test func theBottomLayersBudgetGatesTheCopies() throws {
        let hedge = try Hedging(delay: .zero, copies: 2)
        let budget = RetryLimits(budget: .tokenBucket(try TokenBucketBudget(maxTokens: 10, tokenRatio: 0.1)))
        let gated = try Self.stack(
            clients: 10, replicas: 1, queue: 0, service: .deterministic(.seconds(1)),
            bottom: try Self.layer(limits: budget, hedge: hedge))
        let tally = try #require(try gated.run(seed: Self.seed).hedge)
        #expect(tally.copies == 13 && tally.refused == 7, "\(tally.copies) copies, \(tally.refused) refused")
        let free = try Self.stack(
            clients: 10, replicas: 1, queue: 0, service: .deterministic(.seconds(1)),
            bottom: try Self.layer(hedge: hedge))
        #expect(try #require(try free.run(seed: Self.seed).hedge).copies == 20)
    }

    /// Where no copy waits (a worker for every copy), the bottom layer's hedge meets the closed
    /// forms as a client's does: Exp(10 ms), the second copy at the p95 (ln 20 × 10 ms), within 4
    /// standard errors (HedgingSimulationTests' derivation), and the scenario reports those forms.
    @Test func whereNoCopyWaitsTheClosedFormsHold() throws {
        let service = ServiceTime.exponential(mean: .milliseconds(10))
        let hedge = try Hedging(delay: .nanoseconds(Int64(log(20) * 1e7)), copies: 2)
        let requests = HedgingSimulationTests.requests
        let scenario = try Self.stack(
            clients: requests, workers: 2 * requests, queue: 0, service: service,
            bottom: try Self.layer(hedge: hedge), above: [try Self.layer("api", hedge: nil)])
        let tally = try #require(try scenario.run(seed: Self.seed).hedge)
        HedgingSimulationTests.expectAgreement(tally, hedge, service, "below two layers", seed: Self.seed)
        let forms = try #require(scenario.hedgeClosedForm)
        #expect(abs(forms.copies - hedge.expectedCopies(service)) < 1e-12)
    }

    /// A bottom layer's hedge over a server that answers at once is refused by name (a hedge above
    /// the bottom, and the clients' over layers: `MiddleLayerHedgeTests`).
    @Test func aHedgeElsewhereIsRefused() throws {
        let hedge = try Hedging(delay: .milliseconds(10), copies: 2)
        #expect(throws: SimulationError.layerHedgeNeedsCapacity("db")) {
            try Scenario(
                clients: 1, server: .outage(until: VirtualTime(nanoseconds: 1_000_000_000)),
                policy: try BackoffPolicy(), bucketWidth: .milliseconds(10),
                layers: [try Self.layer(hedge: hedge)])
        }
    }
}
