import BackoffPolicies
import Foundation
import Testing

@testable import RetrySimulation

/// Envoy's `hedge_on_per_try_timeout` (``Hedging/init(perTryTimeout:copies:backoffBase:backoffMax:cancelsLosers:cancellationDelay:)``):
/// timelines worked by hand, the closed forms averaged over the backoff's draws against hand
/// values, and the simulation where no copy waits against the closed forms.
@Suite struct PerTryTimeoutHedgeTests {
    static let seed: UInt64 = 20_190_116
    static let fixed100ms = ServiceTime.deterministic(.milliseconds(100))
    static let millisecond = 1e6

    /// Fast (10 ms) with probability 0.95, else slow (1 s).
    static let fastOrSlow = ServiceTime.mixture([
        .init(weight: 0.95, time: .deterministic(.milliseconds(10))),
        .init(weight: 0.05, time: .deterministic(.seconds(1))),
    ])

    /// Copy 1 at 0 has not answered at the 30 ms timeout: it stays, and copy 2 goes after a backoff
    /// B of whole milliseconds below 25 ms, at 30 + B ms. Copy 1 answers at 100 ms and copy 2 is
    /// reset then: work 100 + 70 − B ms. Over seeds, B takes several of its 25 values.
    @Test func theHedgeWaitsItsBackoffAfterThePerTryTimeout() throws {
        let hedge = try Hedging(perTryTimeout: .milliseconds(30), copies: 2)
        var backoffs = Set<Int>()
        for seed in Self.seed..<Self.seed + 20 {
            let report = try HedgedReplicasTests.scenario(replicas: 2, service: Self.fixed100ms, hedge: hedge)
                .run(seed: seed)
            let tally = try #require(report.hedge)
            #expect(tally.copies == 2 && tally.withdrawn == 1 && tally.responses.mean == 0.1, "seed \(seed)")
            let backoff = (0.17 - tally.work) * 1000
            #expect(abs(backoff - backoff.rounded()) < 1e-6, "seed \(seed): backoff \(backoff) ms, not whole")
            #expect((0...24).contains(Int(backoff.rounded())), "seed \(seed): backoff \(backoff) ms")
            backoffs.insert(Int(backoff.rounded()))
        }
        #expect(backoffs.count >= 5, "20 seeds drew backoffs \(backoffs.sorted()) ms")
    }

    /// A copy that answers before the timeout sends no hedge; the timeout counts from each copy's
    /// own start (a third copy goes 30 ms + a backoff after the second).
    @Test func theTimeoutCountsFromEachCopysStart() throws {
        let quick = try HedgedReplicasTests.scenario(
            replicas: 3, service: .deterministic(.milliseconds(20)),
            hedge: try Hedging(perTryTimeout: .milliseconds(30), copies: 3)
        ).run(seed: Self.seed)
        #expect(try #require(quick.hedge).copies == 1)
        let hedge = try Hedging(perTryTimeout: .milliseconds(30), copies: 3, cancelsLosers: false)
        let report = try HedgedReplicasTests.scenario(replicas: 3, service: Self.fixed100ms, hedge: hedge)
            .run(seed: Self.seed)
        let tally = try #require(report.hedge)
        // Copy 2 at 30 + B1 (B1 < 25 ms), copy 3 at 60 + B1 + B2 (B2 < 50 ms): before 100 ms only
        // when B1 + B2 < 40 ms; kept losers run 100 ms each, so work is 100 ms a copy.
        #expect(tally.copies == 2 || tally.copies == 3)
        #expect(abs(tally.work - 0.1 * Double(tally.copies)) < 1e-12)
    }

    /// A full queue's rejection of the newest copy is retried after a backoff, not at once (A6's
    /// rule): one replica of one worker and no queue, two clients. Client 0's copy 1 is served
    /// 0-100 ms; its hedge (at 30 ms + B) is rejected and dropped, copy 1 still in flight. Client
    /// 1's copy 1 is rejected at 0, its copy 2 goes at B and is rejected: the call fails at B, a
    /// whole number of milliseconds below 25 ms, not at 0 in every seed.
    @Test func aRejectionIsRetriedAfterABackoff() throws {
        let hedge = try Hedging(perTryTimeout: .milliseconds(30), copies: 2)
        var failures = Set<Int>()
        for seed in Self.seed..<Self.seed + 20 {
            let report = try HedgedReplicasTests.scenario(
                clients: 2, replicas: 1, queue: 0, service: Self.fixed100ms, hedge: hedge
            ).run(seed: seed)
            #expect(report.attempts == 4 && report.rejected == 3, "seed \(seed)")
            #expect(report.successes == 1 && report.giveUps == 1, "seed \(seed)")
            let tally = try #require(report.hedge)
            let failedAt = (2 * tally.responses.mean - 0.1) * 1000
            #expect(abs(failedAt - failedAt.rounded()) < 1e-6 && (0...24).contains(Int(failedAt.rounded())))
            failures.insert(Int(failedAt.rounded()))
        }
        #expect(failures.count >= 5, "20 seeds failed at \(failures.sorted()) ms")
    }

    /// A hedge is a retry, granted by the retry budget: one worker busy for 1 s, no queue, ten
    /// clients at 0, each with one chance of a second copy (its timeout after 1 ms, or its
    /// rejection). Without a budget all ten go; with a token bucket of 10 (no hedge at or below
    /// half, each rejection a token) some are refused, and every chance is either sent or refused.
    @Test func theRetryBudgetGatesTheHedge() throws {
        let hedge = try Hedging(perTryTimeout: .milliseconds(1), copies: 2)
        let server = ServerModel.capacity(
            CapacityModel(workers: 1, serviceTime: .deterministic(.seconds(1)), queueLimit: 0, replicas: 1))
        let policy = try BackoffPolicy(budget: .maxAttempts(1))
        let free = try Scenario(
            clients: 10, server: server, policy: policy, bucketWidth: .milliseconds(10), hedging: hedge)
        let freeTally = try #require(try free.run(seed: Self.seed).hedge)
        #expect(freeTally.copies == 20 && freeTally.refused == 0)
        let budgeted = try Scenario(
            clients: 10, server: server, policy: policy, bucketWidth: .milliseconds(10),
            limits: RetryLimits(budget: .tokenBucket(try TokenBucketBudget(maxTokens: 10, tokenRatio: 0.1))),
            hedging: hedge)
        let tally = try #require(try budgeted.run(seed: Self.seed).hedge)
        #expect(
            tally.refused > 0 && tally.copies + tally.refused == 20, "\(tally.copies) copies, \(tally.refused) refused")
    }

    /// A granted hedge is a retry in flight until its request ends, as Envoy's `max_retries`
    /// counts it: ten clients at 0 against a server with a worker each (1 s of service), a
    /// concurrency budget of 3 retries in flight (percent 0, min 3). Each hedge at 1 ms + B: the
    /// first three are granted and stay in flight, the other seven are refused.
    @Test func aConcurrencyBudgetCountsHedgesInFlight() throws {
        let scenario = try Scenario(
            clients: 10,
            server: .capacity(
                CapacityModel(workers: 20, serviceTime: .deterministic(.seconds(1)), queueLimit: 0, replicas: 2)),
            policy: try BackoffPolicy(budget: .maxAttempts(1)), bucketWidth: .milliseconds(10),
            limits: RetryLimits(
                budget: .concurrency(try ConcurrencyBudget(budgetPercent: 0, minRetryConcurrency: 3))),
            hedging: try Hedging(perTryTimeout: .milliseconds(1), copies: 2))
        let tally = try #require(try scenario.run(seed: Self.seed).hedge)
        #expect(tally.copies == 13 && tally.refused == 7, "\(tally.copies) copies, \(tally.refused) refused")
    }

    /// The closed forms by hand, T = 50 ms, 2 copies, the backoff B uniform on 0-24 ms (mean 12):
    /// copies 1 + 0.05 = 1.05; R is 10 ms (0.95), 50 + B + 10 ms (0.05 × 0.95: mean 72 ms) or
    /// 1 s (0.05²): E[R] = 9.5 + 3.42 + 2.5 = 15.42 ms; work, cancelled: 10, 72 + 10, or
    /// 1000 + (1000 − 62) ms: 9.5 + 3.895 + 4.845 = 18.24 ms; kept: E[T] × copies = 59.5 × 1.05.
    @Test func theClosedFormsAverageOverTheBackoffDraws() throws {
        let hedge = try Hedging(perTryTimeout: .milliseconds(50), copies: 2)
        let schedules = try #require(hedge.startSchedules())
        #expect(schedules.count == 25)
        #expect(abs(schedules.reduce(0) { $0 + $1.probability } - 1) < 1e-12)
        let service = Self.fastOrSlow
        #expect(abs(hedge.expectedCopies(service) - 1.05) < 1e-12)
        #expect(abs(hedge.expectedResponse(service) / Self.millisecond - 15.42) < 1e-6)
        #expect(abs(hedge.expectedWork(service, cancelling: true) / Self.millisecond - 18.24) < 1e-6)
        #expect(abs(hedge.expectedWork(service, cancelling: false) / Self.millisecond - 59.5 * 1.05) < 1e-6)
        // Between the atoms: R > 70.5 ms when copy 1 is slow and copy 2 (done at 60 + B ms) is slow or
        // has B ≥ 11 ms (14 of 25 values): answered with 1 − 0.05 × (0.05 + 0.95 × 0.56).
        let answered = 1 - hedge.responseSurvival(service, atNanoseconds: 70.5 * Self.millisecond)
        #expect(abs(answered - (1 - 0.05 * (0.05 + 0.95 * 0.56))) < 1e-12)
        // Three copies: 25 × 50 schedules; four would be 125,000, past the limit: no closed form.
        #expect(try Hedging(perTryTimeout: .milliseconds(50), copies: 3).startSchedules()?.count == 1_250)
        #expect(try Hedging(perTryTimeout: .milliseconds(50), copies: 4).startSchedules() == nil)
    }

    /// The simulation where no copy waits (a worker for every copy) against the closed forms, each
    /// within 4 standard errors (HedgingSimulationTests' derivation), with and without
    /// cancellation: lognormal service (mean 16.5 ms) with the timeout at its p95, 2 and 3 copies
    /// (25 and 1,250 start schedules), and the fast-or-slow mixture with 2.
    @Test(arguments: [("lognormal", 2), ("lognormal", 3), ("fast-or-slow", 2)])
    func theSimulationMatchesTheClosedForms(service name: String, copies: Int) throws {
        let scale = 1e7
        let lognormal = ServiceTime.lognormal(
            mean: .nanoseconds(Int64(exp(0.5) * scale)),
            standardDeviation: .nanoseconds(Int64(((exp(1.0) - 1) * exp(1.0)).squareRoot() * scale)))
        let (service, timeout): (ServiceTime, Duration) =
            name == "lognormal"
            ? (lognormal, .nanoseconds(Int64(exp(1.644_853_6) * scale))) : (Self.fastOrSlow, .milliseconds(50))
        for cancels in [true, false] {
            let hedge = try Hedging(perTryTimeout: timeout, copies: copies, cancelsLosers: cancels)
            let tally = try HedgingSimulationTests.unloaded(service, hedge, seed: Self.seed)
            HedgingSimulationTests.expectAgreement(
                tally, hedge, service, "\(name), \(copies) copies, cancel \(cancels)", seed: Self.seed)
        }
    }
}
