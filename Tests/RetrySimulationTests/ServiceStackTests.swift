import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// Retries across a stack of service layers (``ServiceStack``): the amplification's closed forms
/// against simulation, and the timeouts, orphaned work, concurrency and deadlines on timelines
/// worked out by hand.
@Suite struct ServiceStackTests {
    static let seed: UInt64 = 20_261_201

    static func policy(_ attempts: Int, jitter: Jitter = .full, base: Duration = .milliseconds(100)) -> BackoffPolicy {
        try! BackoffPolicy(base: base, jitter: jitter, budget: .maxAttempts(attempts))
    }

    static func layers(_ attempts: [Int], limits: RetryLimits = RetryLimits()) -> [ServiceLayer] {
        attempts.enumerated().map { index, n in
            try! ServiceLayer(name: "layer\(index + 1)", policy: policy(n), limits: limits)
        }
    }

    /// The SRE book's example: 4 attempts at the client and at each of two layers make 4³ = 64
    /// attempts at an always-failing server, exactly, and each layer sends 4 for each it receives.
    @Test func fourAttemptsAtThreeTiersMakeSixtyFourAtTheServer() throws {
        let scenario = try Scenario(
            clients: 500, server: .alwaysFail, policy: Self.policy(4), bucketWidth: .milliseconds(100),
            layers: Self.layers([4, 4]))
        let report = try scenario.run(seed: Self.seed)
        #expect(scenario.amplificationFormula == 64)
        #expect(report.attempts == 500 * 64 && report.workAmplification == 64)
        #expect(report.clientAttempts == 500 * 4)
        #expect(report.layers.map(\.requests) == [2_000, 8_000] && report.layers.map(\.attempts) == [8_000, 32_000])
        #expect(report.layers.map(\.giveUps) == [2_000, 8_000] && report.giveUps == 500)
        #expect(report.orphanedAttempts == 0 && report.deadlineExceeded == 0)
        // Only the very first attempt of each request is first-attempt traffic at the server.
        #expect(report.timeline.buckets.map(\.retries).reduce(0, +) == 500 * 63)
    }

    /// Against Bernoulli(p) failures the layers telescope: the server attempts of one request are
    /// min(G, N), G geometric with success 1 − p and N = ∏ n_k, whose mean is (1 − p^N)/(1 − p).
    /// Its variance comes from the same distribution, summed below; the mean of R requests has
    /// standard error √(Var / R). Tolerance: 4 SE.
    @Test(arguments: [(0.5, [4, 4, 4]), (0.9, [3, 2, 2]), (0.2, [2, 1, 5])])
    func bernoulliFailuresTelescope(p: Double, attempts: [Int]) throws {
        let requests = 20_000
        let scenario = try Scenario(
            clients: requests, server: .bernoulli(failureProbability: p, retryAfter: nil),
            policy: Self.policy(attempts[0]),
            bucketWidth: .milliseconds(100), layers: Self.layers(Array(attempts.dropFirst())))
        let n = attempts.reduce(1, *)
        let formula = try #require(scenario.amplificationFormula)
        var (mean, square) = (0.0, 0.0)
        for k in 1...n {
            let probability = k < n ? pow(p, Double(k - 1)) * (1 - p) : pow(p, Double(n - 1))
            mean += Double(k) * probability
            square += Double(k * k) * probability
        }
        #expect(abs(formula - mean) < 1e-12, "p \(p), N \(n): closed form \(formula), summed \(mean)")
        let standardError = ((square - mean * mean) / Double(requests)).squareRoot()
        let report = try scenario.run(seed: Self.seed)
        #expect(
            abs(report.workAmplification - formula) <= 4 * standardError,
            "seed \(Self.seed), p \(p), N \(n): amplification \(report.workAmplification), formula \(formula), SE \(standardError)"
        )
        #expect(report.successes + report.giveUps == requests)
    }

    /// The SRE book's rule, retrying only at the layer above the one that fails: every tier above
    /// makes one attempt, and the amplification is that layer's n, exactly.
    @Test func retryingOnlyAtTheBottomAmplifiesByItsAttempts() throws {
        let scenario = try Scenario(
            clients: 300, server: .alwaysFail, policy: Self.policy(1), bucketWidth: .milliseconds(100),
            layers: Self.layers([1, 1, 3]))
        let report = try scenario.run(seed: Self.seed)
        #expect(scenario.amplificationFormula == 3 && report.workAmplification == 3)
    }

    /// A ratio budget r at every tier (Finagle's, without its reserve) under steady arrivals caps
    /// each tier's attempts at (1 + r) times the requests it receives, so the stack's at (1 + r)^L.
    /// The budget counts requests and retries in a sliding window of 10 slots, whose edge can hold
    /// one slot's requests more than the retries it is set against: per tier at most 1 + 1.1 r.
    /// Bound: (1 + 1.1 r)^L; and the budget binds (always-fail), so the stack comes near (1 + r)^L.
    @Test func ratioBudgetsBoundTheAmplification() throws {
        let budget = RetryBudget.ratio(try RatioBudget(percentCanRetry: 0.1, minRetriesPerSecond: 0))
        let limits = RetryLimits(budget: budget)
        let scenario = try Scenario(
            clients: 1, server: .alwaysFail, policy: Self.policy(4), bucketWidth: .seconds(1),
            arrivals: .poisson(ratePerSecond: 200, duration: .seconds(60)), limits: limits,
            layers: Self.layers([4, 4], limits: limits))
        #expect(scenario.amplificationFormula == nil)
        let report = try scenario.run(seed: Self.seed)
        let amplification = report.workAmplification
        #expect(amplification <= pow(1.11, 3), "seed \(Self.seed): amplification \(amplification)")
        #expect(amplification >= 1.3, "seed \(Self.seed): amplification \(amplification): the budgets should bind")
        #expect(report.layers.allSatisfy { Double($0.attempts) <= 1.11 * Double($0.requests) })
    }

    /// One worker of 1 s, one client making one attempt, one layer of 2 attempts with a 400 ms
    /// per-try timeout and a 100 ms wait (no jitter):
    /// - 0 s: attempt 1 is served (until 1 s); 0.4 s: it times out; 0.5 s: attempt 2 queues;
    /// - 0.9 s: attempt 2 times out, the layer gives up, the client's request fails;
    /// - 1 s: attempt 1 is done for nobody (wasted, orphaned); attempt 2 is served (until 2 s),
    ///   for nobody too. With deadline propagation its caller's timeout has cancelled it: it
    ///   leaves the queue unserved, and one attempt is orphaned, not two.
    /// Work done for nobody is no answer: the timeline records none. The same holds where the server
    /// is a replica set of one (an outlier detection that never ejects runs it through one).
    @Test(arguments: [false, true], [false, true])
    func perTryTimeoutsLeaveOrphanedWork(propagating: Bool, replicaSet: Bool) throws {
        let capacity = CapacityModel(
            workers: 1, serviceTime: .deterministic(.seconds(1)), queueLimit: 10,
            outlierDetection: replicaSet ? OutlierDetection() : nil)
        let layer = try ServiceLayer(
            name: "api", policy: Self.policy(2, jitter: .disabled, base: .milliseconds(100)),
            timeout: .milliseconds(400))
        let scenario = try Scenario(
            clients: 1, server: .capacity(capacity), policy: Self.policy(1), bucketWidth: .milliseconds(100),
            layers: [layer], deadline: propagating ? .seconds(60) : nil, propagatesDeadline: propagating)
        #expect(scenario.runsReplicaSet == replicaSet)
        let report = try scenario.run(seed: Self.seed)
        #expect(report.attempts == 2 && report.layers[0].timeouts == 2 && report.layers[0].giveUps == 1)
        #expect(report.giveUps == 1 && report.meanCompletion == 0.9)
        #expect(report.orphanedAttempts == (propagating ? 1 : 2) && report.wastedWork == report.orphanedAttempts)
        #expect(report.timeline.buckets.map(\.successes).reduce(0, +) == 0)
        #expect(report.lastCompletion == 0.9)
    }

    /// A late answer of an attempt that timed out is not the call's answer while the call backs
    /// off: one worker of 1 s, a layer of 2 attempts with a 400 ms per-try timeout and an 800 ms
    /// wait. Attempt 1 times out at 0.4 s and is answered at 1 s, during the wait: orphaned.
    /// Attempt 2 goes at 1.2 s, times out at 1.6 s, and the layer gives up; its answer at 2.2 s is
    /// orphaned too.
    @Test func aLateAnswerDuringTheBackoffIsOrphaned() throws {
        let capacity = CapacityModel(workers: 1, serviceTime: .deterministic(.seconds(1)), queueLimit: 10)
        let layer = try ServiceLayer(
            name: "api", policy: Self.policy(2, jitter: .disabled, base: .milliseconds(800)),
            timeout: .milliseconds(400))
        let scenario = try Scenario(
            clients: 1, server: .capacity(capacity), policy: Self.policy(1), bucketWidth: .milliseconds(100),
            layers: [layer])
        let report = try scenario.run(seed: Self.seed)
        #expect(report.attempts == 2 && report.layers[0].timeouts == 2 && report.layers[0].successes == 0)
        #expect(report.giveUps == 1 && report.successes == 0 && report.meanCompletion == 1.6)
        #expect(report.orphanedAttempts == 2 && report.wastedWork == 2)
    }

    /// An attempt is orphaned when any caller above stopped waiting, not only its own: one worker
    /// of 1 s, the client's 300 ms timeout, two layers without timeouts. At 0.3 s the client gives
    /// up; at 1 s the server answers the bottom layer, which still waits and passes the success up
    /// to nobody. One orphan, and no wasted work (the server's own caller was waiting).
    @Test func aTimeoutAboveOrphansTheWorkBelow() throws {
        let capacity = CapacityModel(workers: 1, serviceTime: .deterministic(.seconds(1)), queueLimit: 10)
        let scenario = try Scenario(
            clients: 1, server: .capacity(capacity), policy: Self.policy(1), bucketWidth: .milliseconds(100),
            attemptTimeout: .milliseconds(300), layers: Self.layers([1, 1]))
        let report = try scenario.run(seed: Self.seed)
        #expect(report.timeouts == 1 && report.giveUps == 1 && report.meanCompletion == 0.3)
        #expect(report.orphanedAttempts == 1 && report.wastedWork == 0)
        #expect(report.layers.map(\.successes) == [1, 1] && report.lastCompletion == 0.3)
    }

    /// A layer holding `concurrency` requests refuses the others at once: three clients at once,
    /// one place, one attempt everywhere, so two requests fail at once and the server sees one.
    @Test func aFullLayerRefusesAtOnce() throws {
        let capacity = CapacityModel(workers: 4, serviceTime: .deterministic(.seconds(1)), queueLimit: 0)
        let layer = try ServiceLayer(name: "pool", policy: Self.policy(1), concurrency: 1)
        let scenario = try Scenario(
            clients: 3, server: .capacity(capacity), policy: Self.policy(1), bucketWidth: .milliseconds(100),
            layers: [layer])
        let report = try scenario.run(seed: Self.seed)
        #expect(report.attempts == 1 && report.layers[0].rejections == 2 && report.successes == 1)
        #expect(report.giveUps == 2 && report.layers[0].requests == 3)
    }

    /// A deadline of 1 s on a request whose only server attempt takes 2 s: the request ends at 1 s
    /// (deadline_exceeded), and without propagation the server finishes the work for nobody.
    @Test func aDeadlineEndsTheRequestAndLeavesTheWorkBelow() throws {
        let capacity = CapacityModel(workers: 1, serviceTime: .deterministic(.seconds(2)), queueLimit: 10)
        let scenario = try Scenario(
            clients: 1, server: .capacity(capacity), policy: Self.policy(3), bucketWidth: .milliseconds(100),
            layers: Self.layers([1]), deadline: .seconds(1))
        let report = try scenario.run(seed: Self.seed)
        #expect(report.deadlineExceeded == 1 && report.meanCompletion == 1 && report.attempts == 1)
        #expect(report.orphanedAttempts == 1 && report.requestsLost == 1)
    }

    /// With propagation a layer starts no retry that would begin at or after the deadline, and
    /// the calls still in progress when it passes are cancelled. An always-failing server and
    /// constant waits of 400 ms: attempts at 0, 0.4, 0.8 s; the retry at 1.2 s is past the 1 s deadline.
    @Test func propagationStopsRetriesAtTheDeadline() throws {
        let constant = try BackoffPolicy(base: .milliseconds(400), schedule: .constant, budget: .maxAttempts(10))
        let layer = try ServiceLayer(name: "api", policy: constant)
        let scenario = try Scenario(
            clients: 1, server: .alwaysFail, policy: try BackoffPolicy(budget: .maxAttempts(1)),
            bucketWidth: .milliseconds(100), layers: [layer], deadline: .seconds(1), propagatesDeadline: true)
        let report = try scenario.run(seed: Self.seed)
        #expect(report.attempts == 3, "\(report.attempts) attempts")
        #expect(report.giveUps == 1 && report.meanCompletion == 0.8, "\(report.giveUps) \(report.meanCompletion)")
    }

    /// The same inputs and seed give the same report, layers and all; another seed another one.
    @Test func aLayeredRunIsDeterministic() throws {
        let capacity = CapacityModel(workers: 8, serviceTime: .exponential(mean: .milliseconds(50)), queueLimit: 20)
        let layers = try [
            ServiceLayer(name: "api", policy: Self.policy(3), timeout: .milliseconds(300)),
            ServiceLayer(
                name: "db", policy: Self.policy(3, jitter: .decorrelated(factor: 3)), timeout: .milliseconds(100)),
        ]
        let scenario = try Scenario(
            clients: 2_000, server: .capacity(capacity), policy: Self.policy(3), bucketWidth: .milliseconds(100),
            arrivals: .uniform(window: .seconds(2)), layers: layers)
        let first = try scenario.run(seed: Self.seed)
        #expect(try scenario.run(seed: Self.seed) == first)
        #expect(try scenario.run(seed: Self.seed + 1) != first)
        #expect(first.orphanedAttempts > 0 && first.layers[1].timeouts > 0)
    }
}
