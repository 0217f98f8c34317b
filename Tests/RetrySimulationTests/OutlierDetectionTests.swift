import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// Envoy's outlier detection by consecutive failures (``OutlierDetection``): the detector traced
/// by hand, and the black hole it ends.
@Suite struct OutlierDetectionTests {
    static let second: Int64 = 1_000_000_000

    /// Five failures in a row eject a host; it is back at the first 10 s tick at or after 30 s
    /// later, and a second ejection lasts 60 s. A success resets the count. At most 10 % of 10
    /// hosts (one) are out at once.
    @Test func theDetectorEjectsAndReturnsAsEnvoysIntervalDoes() {
        var hosts = HostTracking(replicas: 10, faultyHosts: 0, predicate: nil, detection: OutlierDetection())
        for _ in 0..<4 { hosts.answered(at: 3, failed: true, now: 2 * Self.second) }
        hosts.answered(at: 3, failed: false, now: 2 * Self.second)  // resets
        for _ in 0..<4 { hosts.answered(at: 3, failed: true, now: 2 * Self.second) }
        var out = hosts.returnEjected(now: 2 * Self.second)
        #expect(!out && hosts.ejections == 0)
        hosts.answered(at: 3, failed: true, now: 2 * Self.second)
        out = hosts.returnEjected(now: 2 * Self.second)
        #expect(out && hosts.isEjected(3) && hosts.ejections == 1)
        // Another host reaching 5 stays in: one of ten may be out.
        for _ in 0..<5 { hosts.answered(at: 4, failed: true, now: 3 * Self.second) }
        #expect(!hosts.isEjected(4) && hosts.ejectedNow == 1)
        // Back at 40 s: the first tick at or after 2 s + 30 s.
        let (before, at) = (hosts.returnEjected(now: 40 * Self.second - 1), hosts.returnEjected(now: 40 * Self.second))
        #expect(before && !at && !hosts.isEjected(3))
        #expect(hosts.ejectedNanoseconds.value == Double(38 * Self.second))
        // A second ejection lasts twice as long: from 41 s, back at the tick at or after 101 s.
        for _ in 0..<5 { hosts.answered(at: 3, failed: true, now: 41 * Self.second) }
        let (stillOut, back) = (
            hosts.returnEjected(now: 110 * Self.second - 1), hosts.returnEjected(now: 110 * Self.second)
        )
        #expect(stillOut && !back)
        #expect(hosts.ejections == 2)
    }

    /// The most hosts out: the percent's share, at least one, never the last.
    @Test(arguments: [(10, 10.0, 1), (100, 10.0, 10), (3, 10.0, 1), (1, 100.0, 0), (4, 100.0, 3), (10, 0.0, 1)])
    func theMostEjected(hosts: Int, percent: Double, most: Int) {
        #expect(OutlierDetection(maxEjectionPercent: percent).mostEjected(of: hosts) == most)
    }

    static func blackHole(_ balancer: Balancer, detection: OutlierDetection?) throws -> Scenario {
        let policy = try BackoffPolicy(base: .milliseconds(10), jitter: .full, budget: .maxAttempts(3))
        let model = CapacityModel(
            workers: 1, serviceTime: .exponential(mean: .milliseconds(50)), queueLimit: 100_000, replicas: 10,
            balancer: balancer, faultyHosts: FaultyHosts(count: 1, fault: .failFast(latency: .milliseconds(1))),
            outlierDetection: detection)
        return try Scenario(
            clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
            arrivals: .poisson(ratePerSecond: 150, duration: .seconds(30)))
    }

    /// Ejected after its first failure for 1,000 s (back at the tick at or after), the fail-fast
    /// host of the black hole gets one copy in a 30 s run, under any balancer, and every request
    /// succeeds; the ejection is scheduled to the 10 s tick after 1,000 s from its start.
    @Test(arguments: [Balancer.random, .leastRequest(choices: 2), .leastRequest(choices: nil), .roundRobin])
    func aHostEjectedAtItsFirstFailureGetsNothingMore(balancer: Balancer) throws {
        let detection = OutlierDetection(consecutiveFailures: 1, baseEjectionTime: .seconds(1_000))
        let report = try Self.blackHole(balancer, detection: detection).run(seed: 12)
        let tally = try #require(report.hedge)
        #expect(tally.faultyCopies == 1 && report.successes == report.clients, "seed 12, \(balancer)")
        let ejections = try #require(tally.ejections)
        #expect(ejections.count == 1 && (990...1_010).contains(ejections.seconds), "\(ejections)")
    }

    /// Envoy's defaults end the black hole of a full scan (seed 3): the failing host drew 45 % of
    /// the copies, and draws under 1 % once ejected after its fifth failure in a row.
    @Test func ejectionEndsTheBlackHole() throws {
        let open = try #require(try Self.blackHole(.leastRequest(choices: nil), detection: nil).run(seed: 3).hedge)
        let ejected = try #require(
            try Self.blackHole(.leastRequest(choices: nil), detection: OutlierDetection()).run(seed: 3).hedge)
        #expect(open.faultyHostShare > 0.3 && ejected.faultyHostShare < 0.01, "seed 3")
        #expect(open.ejections == nil && ejected.ejections?.count == 1)
    }

    /// Out-of-range detectors are refused by the model.
    @Test(arguments: [
        OutlierDetection(consecutiveFailures: 0), OutlierDetection(interval: .zero),
        OutlierDetection(baseEjectionTime: .seconds(-1)), OutlierDetection(maxEjectionPercent: .nan),
        OutlierDetection(maxEjectionPercent: 101),
    ])
    func outOfRangeDetectorsAreRefused(detection: OutlierDetection) {
        let model = CapacityModel(
            workers: 1, serviceTime: .exponential(mean: .milliseconds(5)), queueLimit: 10, replicas: 2,
            outlierDetection: detection)
        // Matched by case: a NaN percent makes the error unequal to itself.
        do {
            try ServerModel.capacity(model).validate()
            Issue.record("\(detection) was accepted")
        } catch {
            guard case .invalidOutlierDetection = error else {
                Issue.record("\(detection): \(error)")
                return
            }
        }
    }
}
