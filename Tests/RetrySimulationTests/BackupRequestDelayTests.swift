import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// Finagle's backup requests (`--hedge on:percentile=Q`): the delay's window worked by hand, then
/// a run against the closed form of a fixed hedge at the percentile the window converges to.
@Suite struct BackupRequestDelayTests {
    static let second: Int64 = 1_000_000_000
    static let millisecond: Int64 = 1_000_000

    /// HdrHistogram's percentile, as Finagle's own tests of `WindowedPercentileHistogram` have it:
    /// the median of 1, 2, 3 is 2, of 1...7 is 4; of 4...10 the 0th is 4, the 50th 7, the 100th 10.
    @Test func thePercentileIsHdrHistograms() {
        let value = BackupRequestDelay.value(atPercentile:of:)
        #expect(value(0.5, [1, 2, 3]) == 2)
        #expect(value(0.5, Array(1...7)) == 4)
        #expect(value(0, Array(4...10)) == 4 && value(0.5, Array(4...10)) == 7 && value(1, Array(4...10)) == 10)
        // p95 of 1...100 is the 95th value, of 1...20 the 19th; an empty histogram reads 0.
        #expect(value(0.95, Array(1...100)) == 95 && value(0.95, Array(1...20)) == 19)
        #expect(value(0.99, []) == 0 && value(0.99, nil) == 0)
    }

    /// The delay a call starting at `now` reads is `expected`.
    static func expect(
        _ delay: inout BackupRequestDelay, at now: Int64, _ expected: Int64?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let read = delay.callStarted(at: now)
        #expect(read == expected, "at \(now) ns", sourceLocation: sourceLocation)
    }

    /// No backup before the first refresh (3 s); then 1 ms until a flushed interval (10 s) reaches a
    /// refresh (12 s); then the percentile of the flushed latencies, until it reaches the ceiling.
    @Test func theDelayFollowsTheWindow() {
        var delay = BackupRequestDelay(percentile: 0.5)
        Self.expect(&delay, at: 0, nil)
        Self.expect(&delay, at: 3 * Self.second - 1, nil)
        Self.expect(&delay, at: 3 * Self.second, Self.millisecond)
        // Latencies 40, 50, 60 ms, from the clock's whole milliseconds: 5.0004 s to 5.0404 s is
        // 5,040 − 5,000 = 40 ms.
        delay.record(start: 5 * Self.second + 400_000, now: 5 * Self.second + 40_400_000)
        delay.record(start: 6 * Self.second, now: 6 * Self.second + 50 * Self.millisecond)
        delay.record(start: 7 * Self.second, now: 7 * Self.second + 60 * Self.millisecond)
        // Flushed at 10 s, read at the refresh of 12 s.
        Self.expect(&delay, at: 11 * Self.second, Self.millisecond)
        Self.expect(&delay, at: 12 * Self.second, 50 * Self.millisecond)
        // The interval flushed at 20 s adds 10 ms twice: the median of 10, 10, 40, 50, 60 is 40 ms.
        delay.record(start: 13 * Self.second, now: 13 * Self.second + 10 * Self.millisecond)
        delay.record(start: 14 * Self.second, now: 14 * Self.second + 10 * Self.millisecond)
        Self.expect(&delay, at: 20 * Self.second, 50 * Self.millisecond)  // refreshed at 18 s
        Self.expect(&delay, at: 21 * Self.second, 40 * Self.millisecond)
        // 40 s: the first interval has left the three kept; at 50 s so has the second, and the
        // histogram is empty: 0, so 1 ms.
        Self.expect(&delay, at: 42 * Self.second, 10 * Self.millisecond)
        Self.expect(&delay, at: 51 * Self.second, Self.millisecond)
        // 2.5 s is recorded as 2,000 ms, the ceiling: no backup at all.
        delay.record(start: 52 * Self.second, now: 54 * Self.second + 500 * Self.millisecond)
        Self.expect(&delay, at: 60 * Self.second, nil)
    }

    /// Finagle's backup budget: 10 a second over 10 s in reserve, and maxExtraLoad per request;
    /// with maxExtraLoad 0 none at all.
    @Test func theBudgetBoundsTheBackups() {
        var delay = BackupRequestDelay(percentile: 0.95)
        let reserve = (0..<150).count { _ in delay.admitsBackup(at: 0) }
        #expect(reserve == 100)
        for _ in 0..<40 { _ = delay.callStarted(at: 0) }  // 40 × 0.05 = 2 more
        let more = (0..<10).count { _ in delay.admitsBackup(at: 0) }
        #expect(more == 2)
        var none = BackupRequestDelay(percentile: 1)
        let admitted = none.admitsBackup(at: 0)
        #expect(!admitted)
    }

    static func run(seed: UInt64, cancels: Bool) throws -> [RequestRecord] {
        let capacity = CapacityModel(
            workers: 100, serviceTime: .exponential(mean: .milliseconds(100)), queueLimit: 100, replicas: 2)
        let scenario = try Scenario(
            clients: 1, server: .capacity(capacity), policy: try BackoffPolicy(budget: .maxAttempts(1)),
            bucketWidth: .seconds(1), arrivals: .poisson(ratePerSecond: 200, duration: .seconds(120)),
            hedging: try Hedging(percentile: 0.95, cancelsLosers: cancels))
        let log = RequestLogTests.Collected()
        let report = try scenario.run(seed: seed, requestLog: log)
        #expect(report.peakQueue == 0, "seed \(seed): a copy waited, so the closed form does not hold")
        return log.records
    }

    /// 200 requests a second of Exp(100 ms) service, a worker free for every copy, losers left to
    /// run (so every copy's latency is recorded whole, and the window holds the service time's own
    /// distribution): once the window is full (from 12 s) the backup goes at the service's p95,
    /// ln 20 × 100 ms, and the copies and the mean response are a fixed hedge's at that delay.
    ///
    /// Tolerance: copies − 1 is Bernoulli(0.05) per request, SE √(0.05·0.95/n) ≈ 0.0015 over the
    /// n ≈ 21,600 requests; the delay is the p95 of a 30 s window of ~6,300 latencies, whose
    /// survival has SE √(0.05·0.95/6,300) ≈ 0.0027 per window, and about 3.6 independent windows
    /// in 108 s: 0.0014. Together 0.0021; z = 4 gives 0.0084. The whole-millisecond delay moves
    /// P(T > d) by at most f(p95) × 1 ms = 0.0005. The mean response: 4 SE of its sample mean,
    /// plus the same delay noise times its slope (P(T > d) ≈ 0.05 per ms of d: 0.05 × 4 ms).
    @Test func theBackupGoesAtThePercentileOfTheWindow() throws {
        let seed: UInt64 = 20_150_302
        let records = try Self.run(seed: seed, cancels: false)
        let steady = records.filter { $0.start.nanoseconds >= 12 * Self.second }
        let n = Double(steady.count)
        let copies = Double(steady.reduce(0) { $0 + $1.copies }) / n
        let fixed = try Hedging(delay: .nanoseconds(Int64(100e6 * log(20))), copies: 2, cancelsLosers: false)
        let service = ServiceTime.exponential(mean: .milliseconds(100))
        #expect(abs(fixed.expectedCopies(service) - 1.05) < 1e-9)
        #expect(abs(copies - 1.05) <= 0.0084 + 0.0005, "seed \(seed): \(copies) copies per request")
        let responses = steady.map { Double($0.completion.nanoseconds - $0.start.nanoseconds) / 1e9 }
        let mean = responses.reduce(0, +) / n
        let sd = (responses.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)).squareRoot()
        let formula = fixed.expectedResponse(service) / 1e9
        #expect(
            abs(mean - formula) <= 4 * sd / n.squareRoot() + 0.05 * 0.004,
            "seed \(seed): mean response \(mean), formula \(formula)")
    }

    /// The start as Finagle has it: no backup in the first 3 s; then, the histogram not yet
    /// flushed, a delay of 1 ms, so nearly every request wants one and the budget decides: at most
    /// its reserve (100) and 5 % of the requests of its 10 s window, and its reserve at least.
    @Test func theBudgetHoldsTheStart() throws {
        let seed: UInt64 = 20_150_303
        let records = try Self.run(seed: seed, cancels: true)
        let early = records.filter { $0.start.nanoseconds < 3 * Self.second }
        #expect(!early.isEmpty && early.allSatisfy { $0.copies == 1 }, "seed \(seed)")
        let starting = records.filter { (3 * Self.second..<12 * Self.second).contains($0.start.nanoseconds) }
        let backups = starting.reduce(0) { $0 + $1.copies - 1 }
        let requests = records.count { $0.start.nanoseconds < 12 * Self.second }
        #expect(backups >= 100 && Double(backups) <= 100 + 0.05 * Double(requests) + 1, "seed \(seed): \(backups)")
    }
}
