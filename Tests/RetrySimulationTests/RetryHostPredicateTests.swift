import BackoffPolicies
import EventSimulation
import Foundation
import Stochastics
import Testing

@testable import RetrySimulation

/// Envoy's previous-hosts predicate (``RetryHostPredicate``): its closed form (a/n)^(k+1) against
/// the retries of runs on random (n, k), by the hosts a each retry's request had tried; with no
/// extra pick it changes nothing; it keeps retries off a host that fails.
@Suite struct RetryHostPredicateTests {
    /// n replicas that each fail an answer with probability `failing`, so that requests retry
    /// whatever hosts they met; Poisson arrivals for `seconds`, `attempts` attempts.
    static func scenario(
        replicas: Int, predicate: RetryHostPredicate?, faulty: FaultyHosts? = nil, failing: Double = 0.5,
        attempts: Int = 6, seconds: Int = 20, balancer: Balancer = .random
    ) throws -> Scenario {
        let policy = try BackoffPolicy(base: .milliseconds(5), jitter: .full, budget: .maxAttempts(attempts))
        let model = CapacityModel(
            workers: 50, serviceTime: .exponential(mean: .milliseconds(5)), queueLimit: 100, replicas: replicas,
            balancer: balancer,
            faultyHosts: faulty ?? FaultyHosts(count: replicas, fault: .failing(probability: failing)),
            retryHostPredicate: predicate)
        return try Scenario(
            clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
            arrivals: .poisson(ratePerSecond: 300, duration: .seconds(seconds)))
    }

    /// On six (n, k) drawn from a seeded stream, each retry whose request had tried a distinct
    /// hosts of n lands on one of them with probability p = (a/n)^(k+1): the k + 1 picks are
    /// uniform and independent of the hosts' answers. Given a, the count that did is Binomial(N_a,
    /// p), within z = 4 of N_a p (sd √(N_a p (1 − p)); exact where p is 1, at a = n).
    @Test func theClosedFormHoldsForEveryTriedCount() throws {
        // SplitMix64 from 2259, the k-th output being stream k's seed under that root.
        var stream: UInt64 = 0
        func next() -> UInt64 {
            defer { stream += 1 }
            return SeedDerivation.streamSeed(root: 2_259, stream: stream)
        }
        for _ in 0..<6 {
            let (n, k) = (2 + Int(next() % 9), Int(next() % 4))
            let predicate = RetryHostPredicate.previousHosts(attempts: k)
            let seed = next()
            let tally = try #require(
                try Self.scenario(replicas: n, predicate: predicate).run(seed: seed).hedge?.triedHosts)
            #expect(tally.retries > 1_000, "n \(n), k \(k), seed \(seed)")
            for (a, count) in tally.retriesByTried.enumerated() where count >= 30 {
                let p = predicate.probabilityOfTriedHost(tried: a, of: n)
                let sd = (Double(count) * p * (1 - p)).squareRoot()
                let hits = Double(tally.toTriedByTried[a])
                #expect(
                    abs(hits - Double(count) * p) <= 4 * sd,
                    "n \(n), k \(k), a \(a), seed \(seed): \(hits) of \(count), expected \(Double(count) * p)")
            }
            // The run's own column: the mean of p over the retries, with its standard error.
            #expect(abs(tally.share - tally.expectedShare) <= 4 * tally.expectedStandardError, "seed \(seed)")
        }
    }

    /// With no extra pick the predicate only watches: every draw is the balancer's, so the run is
    /// the plain run's, request for request; and a retry goes back with probability a/n.
    @Test func noExtraPickChangesNothing() throws {
        let watched = try Self.scenario(replicas: 4, predicate: .previousHosts(attempts: 0)).run(seed: 9)
        let plain = try Self.scenario(replicas: 4, predicate: nil).run(seed: 9)
        #expect(watched.attempts == plain.attempts && watched.successes == plain.successes)
        #expect(watched.totalWait.mean == plain.totalWait.mean && watched.timeline == plain.timeline)
        #expect(watched.hedge?.responses.mean == plain.hedge?.responses.mean)
        #expect(plain.hedge?.triedHosts == nil)
        let tally = try #require(watched.hedge?.triedHosts)
        #expect(abs(tally.share - tally.expectedShare) <= 4 * tally.expectedStandardError, "seed 9")
    }

    /// One host of two fails fast. Three attempts under a random balancer all fail with
    /// probability 1/8 (each lands on it with 1/2). Under the predicate with k = 3 a retry returns
    /// to it with (1/2)^4 only, so a request is lost with probability 1/2 · 1/16 · 1/16 = 1/512 or
    /// less: the lost share falls from about 12.5 % to under 1 % (seed 4, 6,000 requests).
    @Test func itKeepsRetriesOffAHostThatFails() throws {
        func lostShare(_ predicate: RetryHostPredicate?) throws -> Double {
            let report = try Self.scenario(
                replicas: 2, predicate: predicate, faulty: FaultyHosts(count: 1, fault: .failFast(latency: .zero)),
                attempts: 3
            ).run(seed: 4)
            return Double(report.clients - report.successes) / Double(report.clients)
        }
        let (plain, kept) = (try lostShare(nil), try lostShare(.previousHosts(attempts: 3)))
        #expect(abs(plain - 0.125) < 0.02 && kept < 0.01, "seed 4: \(plain), \(kept)")
    }

    /// The predicate concerns the clients' retries: below layers it is refused, and its picks are
    /// 0 to 100.
    @Test func itIsRefusedBelowLayersAndOutOfRange() throws {
        let model = CapacityModel(
            workers: 1, serviceTime: .exponential(mean: .milliseconds(5)), queueLimit: 10, replicas: 2,
            retryHostPredicate: .previousHosts(attempts: 1))
        let layer = try ServiceLayer(name: "api", policy: try BackoffPolicy(budget: .maxAttempts(2)))
        #expect(throws: SimulationError.retryHostPredicateWithLayers) {
            try Scenario(
                clients: 1, server: .capacity(model), policy: try BackoffPolicy(), bucketWidth: .seconds(1),
                layers: [layer])
        }
        for attempts in [-1, RetryHostPredicate.mostAttempts + 1] {
            let bad = CapacityModel(
                workers: 1, serviceTime: .exponential(mean: .milliseconds(5)), queueLimit: 10, replicas: 2,
                retryHostPredicate: .previousHosts(attempts: attempts))
            #expect(throws: SimulationError.invalidRetryHostPredicate(.previousHosts(attempts: attempts))) {
                try ServerModel.capacity(bad).validate()
            }
        }
        #expect(RetryHostPredicate.previousHosts(attempts: 2).probabilityOfTriedHost(tried: 1, of: 4) == 1.0 / 64)
    }
}
