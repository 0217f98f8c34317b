import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// Each host's load in a replica set (``HostLoad``, `--hosts-report`): counting it changes no draw,
/// the hosts add up to the run's totals, and a random balancer gives each host 1/K of the copies.
@Suite struct HostLoadTests {
    /// K replicas of one 50 ms worker, Poisson arrivals at `rate` for `seconds`, 3 attempts with
    /// full jitter, one host failing fast and the balancer and detection given.
    static func scenario(
        replicas: Int = 10, balancer: Balancer = .random, detection: OutlierDetection? = nil, rate: Double = 150,
        seconds: Int = 60
    ) throws -> Scenario {
        let policy = try BackoffPolicy(base: .milliseconds(10), jitter: .full, budget: .maxAttempts(3))
        let model = CapacityModel(
            workers: 1, serviceTime: .exponential(mean: .milliseconds(50)), queueLimit: 1000, replicas: replicas,
            balancer: balancer, faultyHosts: FaultyHosts(count: 1, fault: .failFast(latency: .milliseconds(1))),
            outlierDetection: detection)
        return try Scenario(
            clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
            arrivals: .poisson(ratePerSecond: rate, duration: .seconds(seconds)))
    }

    /// The copies go where they would have gone: the run's report, but for the loads, is the same.
    @Test(arguments: [Balancer.random, .leastRequest(choices: 2)])
    func countingTheLoadsChangesNoDraw(balancer: Balancer) throws {
        let scenario = try Self.scenario(balancer: balancer, detection: OutlierDetection(), seconds: 20)
        let plain = try scenario.run(seed: 3)
        let counted = try scenario.countingHostLoads().run(seed: 3)
        #expect(plain.hedge?.hosts == nil)
        let loads = try #require(counted.hedge?.hosts)
        #expect(loads.count == 10)
        #expect(counted.attempts == plain.attempts && counted.successes == plain.successes)
        #expect(counted.hedge?.copies == plain.hedge?.copies && counted.hedge?.ejections == plain.hedge?.ejections)
        #expect(counted.hedge?.responses == plain.hedge?.responses && counted.hedge?.work == plain.hedge?.work)
        #expect(counted.totalWait == plain.totalWait && counted.timeline == plain.timeline)
    }

    /// The hosts add up: their copies to the copies sent, their successes to the clients' (one copy
    /// per attempt and no timeout, so every success reaches its client), their busy time to the
    /// workers', their ejections to the detector's. The fail-fast host holds no worker and fails
    /// every copy; the others fail none (a queue of 1,000 is never full here).
    @Test func theHostsAddUpToTheRun() throws {
        let report = try Self.scenario(balancer: .leastRequest(choices: 2), detection: OutlierDetection())
            .countingHostLoads().run(seed: 4)
        let hedge = try #require(report.hedge)
        let loads = try #require(hedge.hosts)
        #expect(loads.map(\.copies).reduce(0, +) == hedge.copies)
        #expect(loads.map(\.successes).reduce(0, +) == report.successes)
        let busy = loads.map(\.busySeconds).reduce(0, +)
        #expect(abs(busy - hedge.work) <= 1e-9 * hedge.work, "\(busy) against \(hedge.work)")
        let ejections = try #require(hedge.ejections)
        #expect(ejections.count > 0 && loads.map(\.ejections).reduce(0, +) == ejections.count)
        let ejected = loads.map(\.ejectedSeconds).reduce(0, +)
        #expect(abs(ejected - ejections.seconds) <= 1e-9 * ejections.seconds)
        #expect(loads[0].busySeconds == 0 && loads[0].successes == 0 && loads[0].failures == loads[0].copies)
        #expect(loads.dropFirst().allSatisfy { $0.failures == 0 && $0.ejections == 0 })
    }

    /// Under a random balancer each copy's host is uniform and independent of what sent the copy,
    /// so, given the copies, a host's count is binomial(copies, 1/K): every host's share lies within
    /// z = 4 standard errors √(p(1 − p)/copies) of 1/K (seed 5, about 20,000 copies, se 0.0021).
    /// A least-request balancer has no such form: the scenario says so.
    @Test func aRandomBalancerGivesEachHostItsShare() throws {
        let seed: UInt64 = 5
        let scenario = try Self.scenario(seconds: 120)
        #expect(scenario.hostShareFormulaHolds)
        #expect(try !Self.scenario(balancer: .leastRequest(choices: 2)).hostShareFormulaHolds)
        #expect(try !Self.scenario(detection: OutlierDetection()).hostShareFormulaHolds)
        let hedge = try #require(try scenario.countingHostLoads().run(seed: seed).hedge)
        let loads = try #require(hedge.hosts)
        let error = HostLoad.shareStandardError(share: 0.1, copies: hedge.copies)
        for (host, load) in loads.enumerated() {
            let share = Double(load.copies) / Double(hedge.copies)
            #expect(abs(share - 0.1) <= 4 * error, "seed \(seed), host \(host): \(share) ± \(4 * error)")
        }
    }
}
