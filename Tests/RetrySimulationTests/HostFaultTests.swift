import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// Faulty hosts (``FaultyHosts``): each fault against what it must do, the share of copies a
/// random balancer sends them against f/K, and the least-request "black hole" against the
/// chance that the faulty host is among the choices.
@Suite struct HostFaultTests {
    /// K replicas of `workers` workers with exponential services of mean `service`, Poisson
    /// arrivals (or `arrivals`) for `seconds`, `attempts` attempts with full jitter from 10 ms.
    static func scenario(
        _ faulty: FaultyHosts, replicas: Int, balancer: Balancer = .random, rate: Double = 400, seconds: Int = 30,
        workers: Int = 1, queue: Int = 100_000, service: Duration = .milliseconds(50), attempts: Int = 1,
        arrivals: Arrivals? = nil, clients: Int = 1, timeout: Duration? = nil
    ) throws -> Scenario {
        let policy = try BackoffPolicy(base: .milliseconds(10), jitter: .full, budget: .maxAttempts(attempts))
        let model = CapacityModel(
            workers: workers, serviceTime: .exponential(mean: service), queueLimit: queue, replicas: replicas,
            balancer: balancer, faultyHosts: faulty)
        return try Scenario(
            clients: clients, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
            arrivals: arrivals ?? .poisson(ratePerSecond: rate, duration: .seconds(seconds)), attemptTimeout: timeout)
    }

    /// Under a random balancer each copy's host is drawn uniformly after whatever decided to send
    /// it, so the share of copies at f faulty hosts of K is f/K however the failures drive the
    /// retries (here fail-fast hosts make them). The draws are independent Bernoulli(f/K), so
    /// the share's standard error is √(p(1 − p)/copies), and it lies within z = 4 of them.
    @Test(arguments: [(10, 1), (10, 3), (4, 1), (3, 3)])
    func aRandomBalancerSendsTheFaultyHostsTheirShare(replicas: Int, count: Int) throws {
        let seed: UInt64 = 11
        let scenario = try Self.scenario(
            FaultyHosts(count: count, fault: .failFast(latency: .milliseconds(1))), replicas: replicas, rate: 300,
            seconds: 20, workers: 4, queue: 100, attempts: 4)
        let expected = try #require(scenario.faultyHostShareFormula)
        #expect(expected == Double(count) / Double(replicas))
        let tally = try #require(try scenario.run(seed: seed).hedge)
        let error = (expected * (1 - expected) / Double(tally.copies)).squareRoot()
        #expect(abs(tally.faultyHostShare - expected) <= 4 * error, "seed \(seed): \(tally.faultyHostShare)")
    }

    /// Envoy's previous-hosts predicate breaks f/K: a retry after the fail-fast host redraws away
    /// from it, so the host gets fewer copies than its 1/K, and the scenario gives no formula.
    /// One host of 10 failing in 1 ms, 4 attempts, 3 redraws, seed 7: the share is below 0.1 by
    /// more than z = 4 binomial standard errors (√(0.09/copies), about 0.0012 for 65,000 copies;
    /// the bias is about 0.008).
    /// With `attempts=0` the predicate only watches, the draws are the plain run's, and f/K stands.
    @Test func aPredicateThatRedrawsHasNoShareFormula() throws {
        let seed: UInt64 = 7
        func scenario(redraws: Int) throws -> Scenario {
            let policy = try BackoffPolicy(base: .milliseconds(10), jitter: .full, budget: .maxAttempts(4))
            let model = CapacityModel(
                workers: 4, serviceTime: .exponential(mean: .milliseconds(50)), queueLimit: 100, replicas: 10,
                faultyHosts: FaultyHosts(count: 1, fault: .failFast(latency: .milliseconds(1))),
                retryHostPredicate: .previousHosts(attempts: redraws))
            return try Scenario(
                clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
                arrivals: .poisson(ratePerSecond: 300, duration: .seconds(200)))
        }
        #expect(try scenario(redraws: 0).faultyHostShareFormula == 0.1)
        let redrawing = try scenario(redraws: 3)
        #expect(redrawing.faultyHostShareFormula == nil)
        let tally = try #require(try redrawing.run(seed: seed).hedge)
        let error = (0.1 * 0.9 / Double(tally.copies)).squareRoot()
        #expect(tally.faultyHostShare < 0.1 - 4 * error, "seed \(seed): \(tally.faultyHostShare)")
    }

    /// The black hole (Envoy 39737): a host that fails in 1 ms among 9 whose one worker takes
    /// 50 ms. At 400 requests a second the 9 are overloaded (they serve 180), so their queues
    /// stay long and a host that holds at most one or two copies wins every draw it is in: a
    /// least-request balancer with k choices of K sends it 1 − (1 − 1/K)^k of the copies (0.19
    /// for p2c against 0.1 for random), each copy independently, so with the binomial standard
    /// error. Only the first copies, while the queues fill (about 0.1 s, 40 copies), see empty
    /// hosts and break ties by the first drawn: a bias below 40 × 0.1/12,000 = 0.0004, allowed
    /// for on top of z = 4 standard errors (0.0036 each).
    @Test(arguments: [2, 3])
    func leastRequestDrawsTrafficToAHostThatFailsFast(choices: Int) throws {
        let seed: UInt64 = 5
        let scenario = try Self.scenario(
            FaultyHosts(count: 1, fault: .failFast(latency: .milliseconds(1))), replicas: 10,
            balancer: .leastRequest(choices: choices))
        #expect(scenario.faultyHostShareFormula == nil, "no closed form for least request")
        let tally = try #require(try scenario.run(seed: seed).hedge)
        let expected = 1 - pow(0.9, Double(choices))
        let error = (expected * (1 - expected) / Double(tally.copies)).squareRoot()
        #expect(
            abs(tally.faultyHostShare - expected) <= 4 * error + 0.0004, "seed \(seed): \(tally.faultyHostShare)")
    }

    /// The more a balancer looks at what is in flight, the more a fail-fast host draws (seed 2):
    /// random about 1/K, then p2c, then a full scan, each well above the one before.
    @Test func moreChoicesDrawMoreIntoTheBlackHole() throws {
        func share(_ balancer: Balancer) throws -> Double {
            let scenario = try Self.scenario(
                FaultyHosts(count: 1, fault: .failFast(latency: .milliseconds(1))), replicas: 10, balancer: balancer,
                rate: 150, seconds: 20, queue: 1_000, attempts: 3)
            return try #require(try scenario.run(seed: 2).hedge).faultyHostShare
        }
        let shares = try [Balancer.random, .leastRequest(choices: 2), .leastRequest(choices: nil)].map(share)
        #expect(shares[1] > 1.3 * shares[0] && shares[2] > 1.5 * shares[1], "seed 2: \(shares)")
    }

    /// A failing host of its own (one replica) answers each request, served first, with a failure
    /// with probability p: with one attempt, the successes are Binomial(N, 1 − p), within z = 4.
    @Test(arguments: [0.0, 0.3, 1.0])
    func aFailingHostFailsItsShareOfAnswers(probability: Double) throws {
        let seed: UInt64 = 3
        let scenario = try Self.scenario(
            FaultyHosts(count: 1, fault: .failing(probability: probability)), replicas: 1, rate: 200, seconds: 20,
            workers: 50, service: .milliseconds(10))
        let report = try scenario.run(seed: seed)
        let n = Double(report.clients)
        let error = (n * probability * (1 - probability)).squareRoot()
        #expect(abs(Double(report.successes) - n * (1 - probability)) <= 4 * error, "seed \(seed)")
        #expect(report.rejected == 0 && report.attempts == report.clients)
    }

    /// One slow host of two (80 ms against 20 ms), with workers to spare: a random balancer gives
    /// each half the requests, so the mean response is 50 ms. The mixture's sd is √(E[T²] − 50²)
    /// with E[T²] = (2·20² + 2·80²)/2 ms², 65.6 ms, and the mean lies within z = 4 of it / √n.
    @Test func aSlowHostServesWithItsOwnTime() throws {
        let seed: UInt64 = 4
        let scenario = try Self.scenario(
            FaultyHosts(count: 1, fault: .slow(.exponential(mean: .milliseconds(80)))), replicas: 2, rate: 300,
            seconds: 20, workers: 200, service: .milliseconds(20))
        let tally = try #require(try scenario.run(seed: seed).hedge)
        let sd = ((2 * 0.02 * 0.02 + 2 * 0.08 * 0.08) / 2 - 0.05 * 0.05).squareRoot()
        let mean = tally.responses.mean
        #expect(abs(mean - 0.05) <= 4 * sd / Double(tally.requests).squareRoot(), "seed \(seed): \(mean)")
    }

    /// A host that is down refuses what reaches it in its window, at once: a burst at 0 to two
    /// hosts, the first down over [0, 1 s), is refused Binomial(2,000, 1/2) times (within z = 4
    /// of 1,000: 4 √500 = 89); with the window at [1 s, 2 s) nothing is refused.
    @Test func aHostThatIsDownRefusesWhatArrivesInItsWindow() throws {
        let seed: UInt64 = 6
        func rejected(from: Duration, until: Duration) throws -> Int {
            let scenario = try Self.scenario(
                FaultyHosts(count: 1, fault: .down(start: VirtualTime(from), end: VirtualTime(until))), replicas: 2,
                workers: 10_000, queue: 0, arrivals: .burst, clients: 2_000)
            return try scenario.run(seed: seed).rejected
        }
        #expect(abs(try rejected(from: .zero, until: .seconds(1)) - 1_000) <= 89, "seed \(seed)")
        #expect(try rejected(from: .seconds(1), until: .seconds(2)) == 0)
    }

    /// A fail-fast failure whose caller has stopped waiting (a timeout of 1 ms, a latency of
    /// 5 ms) reaches nobody: every attempt times out, and each failure is counted as dropped, once.
    @Test func aFailureNobodyWaitsForIsDropped() throws {
        let scenario = try Self.scenario(
            FaultyHosts(count: 1, fault: .failFast(latency: .milliseconds(5))), replicas: 1, rate: 100, seconds: 5,
            attempts: 2, timeout: .milliseconds(1))
        let report = try scenario.run(seed: 8)
        #expect(report.timeouts == report.attempts && report.expiredDrops == report.attempts)
        #expect(report.successes == 0 && report.attempts == 2 * report.clients)
    }

    /// Faulty hosts take every closed form of a homogeneous replica set away: the chain (one
    /// replica), the fluid and the hedge's forms (two).
    @Test func faultyHostsHaveNoHomogeneousClosedForms() throws {
        let policy = try BackoffPolicy(base: .milliseconds(10), jitter: .exponential, budget: .maxAttempts(3))
        func scenario(replicas: Int, _ faulty: FaultyHosts?) throws -> Scenario {
            let model = CapacityModel(
                workers: 2, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 5, replicas: replicas,
                faultyHosts: faulty)
            return try Scenario(
                clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
                arrivals: .poisson(ratePerSecond: 100, duration: .seconds(10)))
        }
        for faulty in [nil, FaultyHosts(count: 1, fault: .failing(probability: 0.5))] {
            #expect((try scenario(replicas: 1, faulty).retrialQueue == nil) == (faulty != nil))
            #expect((try scenario(replicas: 2, faulty).fluidModel == nil) == (faulty != nil))
            #expect((try scenario(replicas: 2, faulty).hedgeClosedForm == nil) == (faulty != nil))
        }
    }

    /// The model refuses a count outside 1 ... K and a fault out of range, by the parameter.
    @Test(arguments: [
        FaultyHosts(count: 0, fault: .failFast(latency: .zero)),
        FaultyHosts(count: 5, fault: .failFast(latency: .zero)),
        FaultyHosts(count: 1, fault: .failFast(latency: .milliseconds(-1))),
        FaultyHosts(count: 1, fault: .failing(probability: .nan)),
        FaultyHosts(count: 1, fault: .failing(probability: 1.5)),
        FaultyHosts(count: 1, fault: .slow(.exponential(mean: .zero))),
        FaultyHosts(count: 1, fault: .down(start: VirtualTime(nanoseconds: 5), end: VirtualTime(nanoseconds: 5))),
        FaultyHosts(count: 1, fault: .down(start: VirtualTime(nanoseconds: -1), end: VirtualTime(nanoseconds: 5))),
    ])
    func outOfRangeFaultsAreRefused(faulty: FaultyHosts) throws {
        let model = CapacityModel(
            workers: 1, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 5, replicas: 4,
            faultyHosts: faulty)
        #expect(throws: SimulationError.invalidHostFault(count: faulty.count, replicas: 4)) {
            try ServerModel.capacity(model).validate()
        }
        let error = SimulationError.invalidHostFault(count: faulty.count, replicas: 4)
        #expect(error.parameter == .hostFault)
    }
}
