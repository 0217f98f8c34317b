import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// Hedged requests against a capacity server's replicas (``HedgedReplicas``): timelines worked by
/// hand, then the closed forms of ``Hedging`` where no copy waits.
@Suite struct HedgedReplicasTests {
    static let seed: UInt64 = 20_130_226

    static func scenario(
        clients: Int = 1, replicas: Int, workers: Int = 1, queue: Int = 10, service: ServiceTime,
        hedge: Hedging?, permanent: Double = 0, arrivals: Arrivals = .burst
    ) throws -> Scenario {
        try Scenario(
            clients: clients,
            server: .capacity(
                CapacityModel(workers: workers, serviceTime: service, queueLimit: queue, replicas: replicas)),
            policy: try BackoffPolicy(budget: .maxAttempts(1)), bucketWidth: .milliseconds(10), arrivals: arrivals,
            permanentFraction: permanent, hedging: hedge)
    }

    static let fixed100ms = ServiceTime.deterministic(.milliseconds(100))

    /// Copy 1 at 0 ends at 100 ms; copy 2 goes at 30 ms to the other replica. With cancellation its
    /// work stops at the answer (70 ms of it); without, it runs to 130 ms, wasted.
    @Test func theSecondCopyGoesAfterTheDelayAndTheFirstSuccessCancelsIt() throws {
        for cancels in [true, false] {
            let hedge = try Hedging(delay: .milliseconds(30), copies: 2, cancelsLosers: cancels)
            let report = try Self.scenario(replicas: 2, service: Self.fixed100ms, hedge: hedge).run(seed: Self.seed)
            let tally = try #require(report.hedge)
            #expect(report.attempts == 2 && report.successes == 1)
            #expect(tally.requests == 1 && tally.copies == 2)
            #expect(tally.responses.mean == 0.1)
            #expect(abs(tally.work - (cancels ? 0.17 : 0.2)) < 1e-12, "cancels \(cancels): work \(tally.work)")
            #expect(tally.withdrawn == (cancels ? 1 : 0))
            #expect(report.wastedWork == (cancels ? 0 : 1))
            #expect(report.lastCompletion == 0.1)
        }
    }

    /// A cancellation that takes 20 ms: copy 2 (sent at 30 ms) stops at 120 ms, not 100 ms, so the
    /// work is 190 ms; one that takes 80 ms arrives after copy 2 ended at 130 ms: 200 ms, wasted.
    /// The closed form says the same (fixed service: exactly).
    @Test func aSlowCancellationLetsTheLoserRunOn() throws {
        for (delay, work, cancelled) in [(20, 0.19, 1), (80, 0.2, 0)] {
            let hedge = try Hedging(
                delay: .milliseconds(30), copies: 2, cancellationDelay: .milliseconds(Int64(delay)))
            let report = try Self.scenario(replicas: 2, service: Self.fixed100ms, hedge: hedge).run(seed: Self.seed)
            let tally = try #require(report.hedge)
            #expect(abs(tally.work - work) < 1e-12, "δ \(delay) ms: work \(tally.work)")
            #expect(tally.withdrawn == cancelled && report.wastedWork == 1 - cancelled, "δ \(delay) ms")
            #expect(abs(hedge.expectedWork(Self.fixed100ms) / 1e9 - work) < 1e-9, "δ \(delay) ms: the form")
            #expect(tally.responses.mean == 0.1)
        }
    }

    /// One replica with one worker: copy 2 waits in the queue behind copy 1, and leaves it unserved
    /// when copy 1 answers (no work); a second request then finds the queue empty.
    @Test func aCancelledCopyLeavesTheQueueUnserved() throws {
        let hedge = try Hedging(delay: .milliseconds(30), copies: 2)
        let report = try Self.scenario(
            clients: 2, replicas: 1, service: Self.fixed100ms, hedge: hedge
        ).run(seed: Self.seed)
        let tally = try #require(report.hedge)
        // Client 0 is served 0-100 ms, client 1 100-200 ms; each one's second copy queued and
        // withdrawn. Client 1's copy 2 went at 30 ms too, behind client 0's.
        #expect(report.successes == 2 && report.attempts == 4)
        #expect(abs(tally.work - 0.2) < 1e-12, "work \(tally.work)")
        #expect(tally.withdrawn == 2)
        #expect(abs(tally.responses.mean - 0.15) < 1e-12)
        #expect(report.peakQueue == 3)
    }

    /// A full queue's rejection is a non-fatal failure: the next copy goes at once. The last copy's
    /// failure answers the call, unless a copy is still in flight.
    @Test func aRejectionSendsTheNextCopyAtOnce() throws {
        let hedge = try Hedging(delay: .milliseconds(50), copies: 2)
        let report = try Self.scenario(
            clients: 2, replicas: 1, queue: 0, service: Self.fixed100ms, hedge: hedge
        ).run(seed: Self.seed)
        // Client 0: copy 1 served 0-100 ms; its copy 2 at 50 ms is rejected, and the call waits for
        // copy 1. Client 1: copy 1 rejected at 0, copy 2 at once, rejected: the call fails at 0.
        #expect(report.attempts == 4 && report.rejected == 3)
        #expect(report.successes == 1 && report.giveUps == 1)
        let tally = try #require(report.hedge)
        #expect(tally.copies == 4 && abs(tally.work - 0.1) < 1e-12)
        #expect(tally.fractionAnswered(within: 0) == 0.5)
    }

    /// A permanent error is fatal: it answers the call and cancels the copy still in service.
    @Test func aPermanentErrorEndsTheCallAndCancelsTheOthers() throws {
        let hedge = try Hedging(delay: .milliseconds(30), copies: 3, cancelsLosers: false)
        let report = try Self.scenario(
            replicas: 3, service: Self.fixed100ms, hedge: hedge, permanent: 1
        ).run(seed: Self.seed)
        let tally = try #require(report.hedge)
        // Copies at 0, 30 and 60 ms; the first answers at 100 ms; the other two are withdrawn
        // even without cancellation of losers (a fatal error cancels all): 100 + 70 + 40 ms.
        #expect(report.permanentFailures == 1 && tally.copies == 3 && tally.withdrawn == 2)
        #expect(abs(tally.work - 0.21) < 1e-12, "work \(tally.work)")
    }

    /// Copies go to distinct replicas: with as many copies as replicas and a delay of 0, every
    /// replica serves one copy of every request, in every seed.
    @Test func copiesGoToDistinctReplicas() throws {
        let hedge = try Hedging(delay: .zero, copies: 3, cancelsLosers: false)
        for seed in UInt64(1)...5 {
            let report = try Self.scenario(
                clients: 4, replicas: 3, queue: 10, service: Self.fixed100ms, hedge: hedge
            ).run(seed: seed)
            // Each replica serves the 4 requests' copies one after another: the last ends at 400 ms.
            #expect(report.lastCompletion == 0.4, "seed \(seed)")
            #expect(report.peakQueue == 3, "seed \(seed): a replica held more than one copy of a request")
        }
    }

    /// Without a hedge, replicas are a balancer: each request goes to one replica drawn uniformly.
    /// 4,000 requests at 2 replicas of 1 worker, served 1 ms each from a burst: the busier replica
    /// ends last, at (2000 + |B - 2000|) ms with B ~ Binomial(4000, 1/2), sd √1000 = 31.6.
    /// Tolerance 4 sd: the last completion lies in [2.0, 2.127] s.
    @Test func replicasWithoutAHedgeBalanceUniformly() throws {
        let report = try Self.scenario(
            clients: 4_000, replicas: 2, queue: 4_000, service: .deterministic(.milliseconds(1)), hedge: nil
        ).run(seed: Self.seed)
        #expect(report.hedge?.copies == 4_000)
        #expect(
            (2.0...2.127).contains(report.lastCompletion), "seed \(Self.seed): last completion \(report.lastCompletion)"
        )
    }

    /// gRPC's retry throttling gates hedges, as A6 has it: a copy after the first is a retry, sent
    /// only while the tokens exceed half of the maximum, and each failed copy costs a token.
    ///
    /// One worker, no queue, 1 s of service; ten clients at t = 0, two copies at once, a bucket of
    /// 10 tokens. Client 0's first copy takes the worker; its second is rejected (9 tokens). Client
    /// 1's first is rejected (8), its hedge granted and rejected, which answers it (7); client 2
    /// likewise (6, then 5). From client 3 on 5 is not above 5: no hedge. 3 × 2 + 7 copies.
    @Test func theTokenBucketStopsHedgesAtHalfItsTokens() throws {
        let scenario = try Scenario(
            clients: 10,
            server: .capacity(
                CapacityModel(workers: 1, serviceTime: .deterministic(.seconds(1)), queueLimit: 0, replicas: 1)),
            policy: try BackoffPolicy(budget: .maxAttempts(1)), bucketWidth: .milliseconds(10),
            limits: RetryLimits(budget: .tokenBucket(try TokenBucketBudget(maxTokens: 10, tokenRatio: 0.1))),
            hedging: try Hedging(delay: .zero, copies: 2))
        let report = try scenario.run(seed: Self.seed)
        let tally = try #require(report.hedge)
        #expect(tally.copies == 13 && report.attempts == 13, "\(tally.copies) copies")
        #expect(tally.refused == 7, "\(tally.refused) refused")
        #expect(report.successes == 1 && report.giveUps == 9)
        // Without the budget every client sends both copies.
        let free = try Scenario(
            clients: 10, server: scenario.server, policy: scenario.policy, bucketWidth: .milliseconds(10),
            hedging: try Hedging(delay: .zero, copies: 2))
        #expect(try #require(try free.run(seed: Self.seed).hedge).copies == 20)
    }

    /// Finagle draws a backup from the client's retry budget too: with a ratio budget of no
    /// reserve and no ratio, no backup goes, whatever the filter's own budget allows.
    @Test func aFinagleBackupNeedsTheClientsRetryBudget() throws {
        func copies(_ limits: RetryLimits) throws -> (backups: Int, refused: Int) {
            let scenario = try Scenario(
                clients: 1,
                server: .capacity(
                    CapacityModel(
                        workers: 50, serviceTime: .exponential(mean: .milliseconds(50)), queueLimit: 10, replicas: 2)),
                policy: try BackoffPolicy(budget: .maxAttempts(1)), bucketWidth: .seconds(1),
                arrivals: .poisson(ratePerSecond: 100, duration: .seconds(20)), limits: limits,
                hedging: try Hedging(percentile: 0.9))
            let report = try scenario.run(seed: Self.seed)
            let tally = try #require(report.hedge)
            return (tally.copies - report.uniqueRequests, tally.refused)
        }
        let free = try copies(RetryLimits())
        #expect(free.backups > 100)
        let none = try RatioBudget(percentCanRetry: 0, minRetriesPerSecond: 0)
        let held = try copies(RetryLimits(budget: .ratio(none)))
        #expect(held.backups == 0 && held.refused >= free.backups, "\(held), without the budget \(free)")
    }
}
