import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// A layer above the bottom hedging its attempts (``LayerHedge``): each copy is a call of the layer
/// below, and a losing copy is cancelled down the stack (a queued bottom attempt is dropped, one
/// in service finished). Timelines by hand, then the closed forms where no copy waits.
@Suite struct MiddleLayerHedgeTests {
    static let seed: UInt64 = 20_261_207
    static let fixed100ms = ServiceTime.deterministic(.milliseconds(100))

    /// Clients at t = 0, one request each, no retries of their own (and `clientHedge`), above
    /// `layers`, in front of one capacity server; with `replicaSet`, the server is a replica set of
    /// one (an outlier detection that never ejects runs it through one).
    static func stack(
        clients: Int = 1, workers: Int, queue: Int, service: ServiceTime = fixed100ms, layers: [ServiceLayer],
        clientHedge: Hedging? = nil, replicaSet: Bool = false
    ) throws -> Scenario {
        try Scenario(
            clients: clients,
            server: .capacity(
                CapacityModel(
                    workers: workers, serviceTime: service, queueLimit: queue,
                    outlierDetection: replicaSet ? OutlierDetection() : nil)),
            policy: try BackoffPolicy(budget: .maxAttempts(1)), bucketWidth: .milliseconds(10), layers: layers,
            hedging: clientHedge)
    }

    static func layer(_ name: String, attempts: Int = 1, hedge: Hedging? = nil) throws -> ServiceLayer {
        try ServiceLayer(
            name: name, policy: try BackoffPolicy(jitter: .disabled, budget: .maxAttempts(attempts)),
            hedging: hedge)
    }

    /// `api`, hedging its attempts: copy 2 at 30 ms.
    static func api30ms() throws -> ServiceLayer {
        try layer("api", hedge: try Hedging(delay: .milliseconds(30), copies: 2))
    }

    /// Two workers: copy 1 is served 0–100 ms, copy 2 (a `db` call at 30 ms) 30–130 ms. Copy 1
    /// answers at 100 ms; copy 2's call is cancelled, and its attempt, in service, runs to its end
    /// for nobody.
    @Test func theFirstSuccessAnswersAndTheLoserIsCancelledBelow() throws {
        let scenario = try Self.stack(workers: 2, queue: 0, layers: [try Self.api30ms(), try Self.layer("db")])
        let report = try scenario.run(seed: Self.seed)
        #expect(report.successes == 1 && report.lastCompletion == 0.1 && report.attempts == 2)
        #expect(report.layers.map(\.requests) == [1, 2] && report.layers.map(\.attempts) == [1, 2])
        #expect(report.layers.map(\.hedgeCopies) == [1, 0] && report.layers.map(\.cancelled) == [0, 1])
        #expect(report.layers.map(\.successes) == [1, 1])
        #expect(report.wastedWork == 1 && report.orphanedAttempts == 1)
    }

    /// One worker: copy 2 waits in the queue behind copy 1, and is dropped unserved when copy 1
    /// wins; without cancellation (`hedge-cancel=false`) its `db` call still waits for it, and it
    /// is served 100–200 ms for a hedge that has its answer (orphaned, not wasted: the work's own
    /// caller waited for it). A replica set of one does the same.
    @Test(arguments: [false, true])
    func aQueuedLoserIsDroppedUnlessTheHedgeKeepsIt(replicaSet: Bool) throws {
        let cancelling = try Self.stack(
            workers: 1, queue: 10, layers: [try Self.api30ms(), try Self.layer("db")], replicaSet: replicaSet)
        let cancelled = try cancelling.run(seed: Self.seed)
        #expect(cancelled.successes == 1 && cancelled.lastCompletion == 0.1)
        #expect(cancelled.wastedWork == 0 && cancelled.layers[1].cancelled == 1)
        let keeping = try Self.stack(
            workers: 1, queue: 10,
            layers: [
                try Self.layer("api", hedge: try Hedging(delay: .milliseconds(30), copies: 2, cancelsLosers: false)),
                try Self.layer("db"),
            ], replicaSet: replicaSet)
        let kept = try keeping.run(seed: Self.seed)
        #expect(kept.successes == 1 && kept.lastCompletion == 0.1)
        #expect(kept.wastedWork == 0 && kept.orphanedAttempts == 1 && kept.layers[1].cancelled == 0)
    }

    /// gRPC's A6 rule through the stack: one worker, no queue, two clients at 0. Client 1's copy 1
    /// takes the worker; client 2's is refused, and its failure sends copy 2 at once, refused in
    /// turn: with both copies failed, `api` gives up. Client 1's copy 2 (at 30 ms) is refused while
    /// copy 1 is in flight, which answers at 100 ms.
    @Test func aFailedCopySendsTheNextAtOnce() throws {
        let scenario = try Self.stack(
            clients: 2, workers: 1, queue: 0, layers: [try Self.api30ms(), try Self.layer("db")])
        let report = try scenario.run(seed: Self.seed)
        #expect(report.successes == 1 && report.giveUps == 1 && report.rejected == 3)
        #expect(report.layers[0].hedgeCopies == 2 && report.layers[1].requests == 4)
        #expect(report.layers[0].giveUps == 1 && report.layers[1].giveUps == 3)
    }

    /// A cancellation walks down every layer: the loser's `mid` call is cancelled, then its `db`
    /// call, whose queued attempt the server drops; a replica set of one drops it too.
    @Test(arguments: [false, true])
    func aCancellationWalksDownEveryLayer(replicaSet: Bool) throws {
        let scenario = try Self.stack(
            workers: 1, queue: 10, layers: [try Self.api30ms(), try Self.layer("mid"), try Self.layer("db")],
            replicaSet: replicaSet)
        let report = try scenario.run(seed: Self.seed)
        #expect(report.successes == 1 && report.lastCompletion == 0.1 && report.wastedWork == 0)
        #expect(report.layers.map(\.cancelled) == [0, 1, 1] && report.layers.map(\.requests) == [1, 2, 2])
    }

    /// Envoy's rule at a middle layer: copy 1's 30 ms per-try timeout passes, and copy 2 follows
    /// after a backoff drawn below a 1 ms window (0 ms, Envoy's whole milliseconds): the same
    /// timeline as a 30 ms delay.
    @Test func envoysPerTryTimeoutHedgesAtAMiddleLayer() throws {
        let hedge = try Hedging(
            perTryTimeout: .milliseconds(30), copies: 2, backoffBase: .milliseconds(1), backoffMax: .milliseconds(1))
        let scenario = try Self.stack(
            workers: 2, queue: 0, layers: [try Self.layer("api", hedge: hedge), try Self.layer("db")])
        let report = try scenario.run(seed: Self.seed)
        #expect(report.successes == 1 && report.lastCompletion == 0.1 && report.attempts == 2)
        #expect(report.layers.map(\.hedgeCopies) == [1, 0] && report.layers.map(\.cancelled) == [0, 1])
    }

    /// A layer whose per-try timeout passes stops its hedge: a 20 ms timeout before a 30 ms delay
    /// sends no second copy, and the copy in flight, whose `db` call still waits, is served for a
    /// caller that gave up (orphaned).
    @Test func theOwnersTimeoutStopsTheHedge() throws {
        let api = try ServiceLayer(
            name: "api", policy: try BackoffPolicy(jitter: .disabled, budget: .maxAttempts(1)),
            timeout: .milliseconds(20), hedging: try Hedging(delay: .milliseconds(30), copies: 2))
        let report = try Self.stack(workers: 2, queue: 0, layers: [api, try Self.layer("db")]).run(seed: Self.seed)
        #expect(report.layers[0].hedgeCopies == 0 && report.layers[0].timeouts == 1 && report.giveUps == 1)
        #expect(report.wastedWork == 0 && report.orphanedAttempts == 1 && report.layers[1].cancelled == 0)
    }

    /// Where no copy waits (a worker for every copy), a middle layer's hedge, and the clients'
    /// over a stack, meet the closed forms as a hedge to replicas does: Exp(10 ms), the second copy
    /// at the p95 (ln 20 × 10 ms). Copies per request: binomial-like, sd √((n − E)(E − 1)) over √N;
    /// the response: the service's RMS over √N bounds its standard error; both within z = 4.
    @Test(arguments: [false, true])
    func whereNoCopyWaitsTheClosedFormsHold(clientsHedge: Bool) throws {
        let service = ServiceTime.exponential(mean: .milliseconds(10))
        let hedge = try Hedging(delay: .nanoseconds(Int64(log(20) * 1e7)), copies: 2)
        let requests = HedgingSimulationTests.requests
        let scenario = try Self.stack(
            clients: requests, workers: 2 * requests, queue: 0, service: service,
            layers: [try Self.layer("api", hedge: clientsHedge ? nil : hedge), try Self.layer("db")],
            clientHedge: clientsHedge ? hedge : nil)
        let report = try scenario.run(seed: Self.seed)
        let n = Double(requests)
        let sent = clientsHedge ? report.clientHedgeCopies : report.layers[0].hedgeCopies
        let copies = 1 + Double(sent) / n
        let expectedCopies = hedge.expectedCopies(service)
        let copiesBound =
            4 * ((Double(hedge.copies) - expectedCopies) * (expectedCopies - 1)).squareRoot() / n.squareRoot()
        #expect(
            abs(copies - expectedCopies) <= copiesBound,
            "seed \(Self.seed): copies \(copies), formula \(expectedCopies) ± \(copiesBound)")
        let response = hedge.expectedResponse(service) / 1e9
        let responseBound = 4 * HedgingSimulationTests.secondMoment(service).squareRoot() / 1e9 / n.squareRoot()
        #expect(
            abs(report.meanCompletion - response) <= responseBound,
            "seed \(Self.seed): mean response \(report.meanCompletion), formula \(response) ± \(responseBound)")
        // Each request with two copies cancels its loser's call one layer down.
        #expect(report.successes == requests && report.layers[clientsHedge ? 0 : 1].cancelled == sent)
    }

    /// The clients' hedge over a stack (`--hedge` with `--layer`): copy 2 of the client's attempt
    /// is a second `api` request at 30 ms; the first answers the client at 100 ms, and the second's
    /// call is cancelled through `api` and `db`, its attempt in service finished for nobody.
    @Test func theClientsHedgeSendsCopiesIntoTheTopLayer() throws {
        let scenario = try Self.stack(
            workers: 2, queue: 0, layers: [try Self.layer("api"), try Self.layer("db")],
            clientHedge: try Hedging(delay: .milliseconds(30), copies: 2))
        #expect(scenario.activeHedge == nil && !scenario.runsReplicaSet)
        let report = try scenario.run(seed: Self.seed)
        #expect(report.successes == 1 && report.lastCompletion == 0.1 && report.attempts == 2)
        #expect(report.clientAttempts == 1 && report.clientHedgeCopies == 1)
        #expect(report.layers.map(\.requests) == [2, 2] && report.layers.map(\.cancelled) == [1, 1])
        #expect(report.wastedWork == 1 && report.hedge == nil)
    }

    /// A hedge moves up a layer unchanged where nothing between tells the two places apart: the
    /// clients hedging into a pass-through `api` (one attempt, no limits) run exactly as `api`
    /// hedging into `db`, draw for draw, under load (40 workers, lognormal service, Poisson arrivals).
    @Test func theClientsHedgeIsThePassThroughLayersHedge() throws {
        let hedge = try Hedging(delay: .milliseconds(25), copies: 2)
        func run(clients: Hedging?, api: Hedging?) throws -> ScenarioReport {
            try Scenario(
                clients: 1,
                server: .capacity(
                    CapacityModel(
                        workers: 40,
                        serviceTime: .lognormal(mean: .milliseconds(10), standardDeviation: .milliseconds(20)),
                        queueLimit: 1000)),
                policy: try BackoffPolicy(budget: .maxAttempts(1)), bucketWidth: .milliseconds(100),
                arrivals: .poisson(ratePerSecond: 2000, duration: .seconds(2)),
                layers: [try Self.layer("api", hedge: api), try Self.layer("db")], hedging: clients
            ).run(seed: Self.seed)
        }
        let (fromClients, fromAPI) = (try run(clients: hedge, api: nil), try run(clients: nil, api: hedge))
        #expect(fromClients.clientHedgeCopies > 0 && fromClients.clientHedgeCopies == fromAPI.layers[0].hedgeCopies)
        #expect(fromClients.attempts == fromAPI.attempts && fromClients.meanCompletion == fromAPI.meanCompletion)
        #expect(fromClients.layers[1].cancelled == fromAPI.layers[1].cancelled)
    }

    /// The clients' budget grants each copy after the first, as it does for a hedge to replicas:
    /// a token bucket of 10 tokens (a retry takes 10 ÷ 10 = 1... `tokenRatio` 0.1: each retry costs
    /// one token's worth of ten), ten clients at once, every copy at once before one worker with no
    /// queue and a `db` that does not retry. The copies are those the bucket grants, fewer than the
    /// 10 an unlimited hedge sends.
    @Test func theClientsBudgetGatesTheirCopies() throws {
        let hedge = try Hedging(delay: .zero, copies: 2)
        let budget = RetryLimits(budget: .tokenBucket(try TokenBucketBudget(maxTokens: 10, tokenRatio: 0.1)))
        let free = try Self.stack(
            clients: 10, workers: 1, queue: 0, service: .deterministic(.seconds(1)), layers: [try Self.layer("db")],
            clientHedge: hedge)
        #expect(try free.run(seed: Self.seed).clientHedgeCopies == 10)
        let gated = try Scenario(
            clients: 10,
            server: .capacity(CapacityModel(workers: 1, serviceTime: .deterministic(.seconds(1)), queueLimit: 0)),
            policy: try BackoffPolicy(budget: .maxAttempts(1)), bucketWidth: .milliseconds(10), limits: budget,
            layers: [try Self.layer("db")], hedging: hedge)
        let copies = try gated.run(seed: Self.seed).clientHedgeCopies
        #expect(copies > 0 && copies < 10, "\(copies) copies granted of 10")
    }

    /// A percentile hedge needs the latencies a replica set sees: above the bottom, and on the
    /// clients with layers, it is refused by name.
    @Test func aPercentileHedgeAboveTheBottomIsRefused() throws {
        #expect(throws: SimulationError.percentileHedgeAboveBottomLayer("api")) {
            try Self.stack(
                workers: 1, queue: 1,
                layers: [try Self.layer("api", hedge: try Hedging(percentile: 0.9)), try Self.layer("db")])
        }
        #expect(throws: SimulationError.percentileHedgeWithLayers) {
            try Self.stack(
                workers: 1, queue: 1, layers: [try Self.layer("db")], clientHedge: try Hedging(percentile: 0.9))
        }
    }

    /// The memory estimate counts a hedge's copies as calls of the layer below: 1,000 clients
    /// hedging 3 copies into `api`, which hedges 2 into `db`, hold 3 `api` calls and 6 `db` calls a
    /// request, where a stack without hedges holds 2.
    @Test func theMemoryEstimateCountsHedgeCopiesAsCalls() throws {
        let plain = try Self.stack(clients: 1000, workers: 4, queue: 10, layers: [Self.layer("api"), Self.layer("db")])
        let hedged = try Self.stack(
            clients: 1000, workers: 4, queue: 10, layers: [try Self.api30ms(), try Self.layer("db")],
            clientHedge: try Hedging(delay: .milliseconds(30), copies: 3))
        func calls(_ scenario: Scenario) throws -> MemoryEstimate.Item {
            try #require(scenario.memoryEstimate.items.first { $0.parameter.hasPrefix("--layer") })
        }
        let (few, many) = (try calls(plain), try calls(hedged))
        #expect(many.bytes == 4.5 * few.bytes)
        #expect(few.what.hasPrefix("at least 2,000 calls in the layers"), "\(few.what)")
        #expect(many.what.hasPrefix("9,000 calls in the layers if every hedge"), "\(many.what)")
    }
}
