import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// The clients' adaptive concurrency limit (`simulate --limit`, ``ClientConcurrencyLimit``): its
/// places traced by hand, and a fixed limit against the Erlang loss formula it must follow.
@Suite struct ClientConcurrencyLimitTests {
    static let millisecond: Int64 = 1_000_000

    /// AIMD from 2 (min 1, max 4): two attempts take both places and a third is refused; a success
    /// at half use or more raises the limit by one; a timeout is a drop that cuts it by the ratio
    /// (⌊3 × 0.5⌋ = 1); an answer to an attempt that holds no place changes nothing.
    @Test func placesAreTakenAndGivenBackAsTheLimitMoves() throws {
        let aimd = try #require(
            ConcurrencyLimit(.aimd(AIMDLimit(initialLimit: 2, minLimit: 1, maxLimit: 4, backoffRatio: 0.5))))
        let limit = ClientConcurrencyLimit(aimd, clients: 3, seed: 1)
        #expect(limit.limit == 2 && limit.admits(at: 0))
        limit.attemptSent(client: 0, at: 0)
        limit.attemptSent(client: 1, at: 0)
        #expect(!limit.admits(at: 1))
        limit.attemptEnded(client: 0, .success, at: 10 * Self.millisecond)
        #expect(limit.limit == 3 && limit.admits(at: 10 * Self.millisecond))
        limit.attemptEnded(client: 0, .success, at: 11 * Self.millisecond)  // no place held: nothing
        #expect(limit.limit == 3)
        limit.attemptEnded(client: 1, .timeout, at: 20 * Self.millisecond)
        #expect(limit.limit == 1)
        limit.attemptSent(client: 2, at: 30 * Self.millisecond)
        #expect(!limit.admits(at: 30 * Self.millisecond))
        limit.addClients(upTo: 5)
        limit.attemptEnded(client: 4, .failure(serverDelay: nil), at: 31 * Self.millisecond)
        #expect(!limit.admits(at: 31 * Self.millisecond), "client 4 held no place")
    }

    /// A limit that cannot move (AIMD with initial = min = max = L) in front of a server with more
    /// workers than L: the clients' attempts in flight are an M/M/L/L loss system, so the share of
    /// requests refused is Erlang's B(L, a), a = λ E[S], whatever the service distribution. Here
    /// L = 5, λ = 100/s, E[S] = 50 ms: B(5, 5) = 0.2849. Blocking indicators are correlated, so the
    /// standard error comes from 10 independent runs (seeds 1 ... 10, 100 s each): the mean share
    /// lies within z = 4 standard errors (sd/√10) of B.
    @Test func aFixedLimitRefusesErlangsShare() throws {
        func erlangB(servers: Int, load a: Double) -> Double {
            (1...servers).reduce(1.0) { b, k in a * b / (Double(k) + a * b) }
        }
        let expected = erlangB(servers: 5, load: 5)
        #expect(abs(expected - 0.28487) < 1e-4)
        let fixed = try #require(ConcurrencyLimit(.aimd(AIMDLimit(initialLimit: 5, minLimit: 5, maxLimit: 5))))
        let policy = try BackoffPolicy(jitter: .full, budget: .maxAttempts(1))
        let model = CapacityModel(workers: 10, serviceTime: .exponential(mean: .milliseconds(50)), queueLimit: 0)
        let scenario = try Scenario(
            clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
            arrivals: .poisson(ratePerSecond: 100, duration: .seconds(100)),
            limits: RetryLimits(concurrencyLimit: fixed))
        let shares = try (1...10).map { seed in
            let report = try scenario.run(seed: UInt64(seed))
            #expect(report.rejected == 0, "seed \(seed): the workers never run out")
            return Double(report.localRejections) / Double(report.uniqueRequests)
        }
        let mean = shares.reduce(0, +) / 10
        let sd = (shares.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 9).squareRoot()
        #expect(
            abs(mean - expected) <= 4 * sd / 10.0.squareRoot(), "seeds 1...10: \(mean) ± \(4 * sd / 10.0.squareRoot())")
    }

    /// The limit shows in the timeline, bucket by bucket, and a contention server refuses it
    /// (its next read leaves with the last answer, past any limit).
    @Test func theTimelineFollowsTheLimitAndContentionRefusesIt() throws {
        let aimd = try #require(ConcurrencyLimit(.aimd(AIMDLimit(initialLimit: 2, minLimit: 1, maxLimit: 50))))
        let policy = try BackoffPolicy(jitter: .full, budget: .maxAttempts(1))
        let model = CapacityModel(workers: 100, serviceTime: .exponential(mean: .milliseconds(20)), queueLimit: 0)
        let scenario = try Scenario(
            clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
            arrivals: .poisson(ratePerSecond: 200, duration: .seconds(10)),
            limits: RetryLimits(concurrencyLimit: aimd))
        let timeline = try scenario.run(seed: 3).timeline
        let limits = (0..<timeline.bucketCount).compactMap { timeline.concurrencyLimit(inBucket: $0) }
        #expect(limits.count >= 10 && limits.allSatisfy { (1...50).contains($0) })
        #expect(limits.last! > 2, "successes at half use or more raise it: \(limits)")
        #expect(throws: SimulationError.concurrencyLimitWithContention) {
            try Scenario(
                clients: 10, server: .contention(hop: .standard), policy: policy, bucketWidth: .seconds(1),
                limits: RetryLimits(concurrencyLimit: aimd))
        }
        #expect(SimulationError.concurrencyLimitWithContention.parameter == .concurrencyLimit)
    }
}
