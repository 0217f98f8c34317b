import BackoffPolicies
import Foundation
import Testing

@Suite struct ScheduleTests {
    @Test func attemptsStartAtExactInstants() throws {
        let policy = try BackoffPolicy(base: .ms(100), schedule: .exponential(multiplier: 2), budget: .maxAttempts(4))
        #expect(policy.nominalStartTimes == [0, 0.1, 0.3, 0.7])
        var source = ScriptedUniforms([0.5])
        #expect(drawWaits(policy, using: &source) == [100_000_000, 200_000_000, 400_000_000])
        #expect(source.position == 0, "no jitter must draw no random numbers")
    }

    /// The un-capped total wait is the geometric series b (m^(n-1) - 1) / (m - 1), evaluated here by
    /// exact integer arithmetic in nanoseconds (b and m are chosen so every term is whole
    /// and exactly representable as a Double number of nanoseconds).
    @Test(arguments: [(100, 2), (10, 3), (1, 4), (250, 1)])
    func totalWaitIsTheGeometricSeries(baseMilliseconds: Int, multiplier: Int) throws {
        for n in 1...20 {
            let policy = try BackoffPolicy(
                base: .ms(baseMilliseconds), schedule: .exponential(multiplier: Double(multiplier)), cap: nil,
                budget: .maxAttempts(n))
            let b = Int64(baseMilliseconds) * 1_000_000
            let m = Int64(multiplier)
            var power: Int64 = 1
            for _ in 0..<(n - 1) { power *= m }
            let exact = m == 1 ? b * Int64(n - 1) : b * (power - 1) / (m - 1)
            let expected = Double(exact) / 1e9
            let formula = try #require(policy.expectedTotalWait)
            #expect(abs(formula - expected) <= 1e-12 * max(1, expected), "n = \(n): \(formula) vs \(expected)")
            var source = ScriptedUniforms([0.5])
            #expect(drawWaits(policy, using: &source).reduce(0, +) == exact, "n = \(n)")
            #expect(policy.nominalStartTimes.last == expected, "n = \(n)")
        }
    }

    @Test func capBindsFromTheFirstRetryThatReachesIt() throws {
        let policy = try BackoffPolicy(base: .ms(100), cap: .seconds(1), budget: .maxAttempts(10))
        var source = ScriptedUniforms([0.5])
        let waits = drawWaits(policy, using: &source)
        #expect(waits == [100, 200, 400, 800, 1000, 1000, 1000, 1000, 1000].map { Int64($0) * 1_000_000 })
        #expect(policy.firstCappedRetry == 5)
        #expect(policy.expectedTotalWait == 6.5)
        // 0.1 + 0.2 + 0.4 + 0.8 = 1.5 below the cap, then 5 capped waits of 1 s.
        let full = try BackoffPolicy(base: .ms(100), cap: .seconds(1), jitter: .full, budget: .maxAttempts(10))
        #expect(full.expectedTotalWait == 3.25)
        let squares = 0.01 + 0.04 + 0.16 + 0.64 + 5
        #expect(abs(full.totalWaitMoments!.variance - squares / 12) < 1e-15)
    }

    @Test func maxRetriesCountsRetriesAndMaxAttemptsCountsAttempts() throws {
        #expect(AttemptBudget.maxRetries(3).attempts == 4)
        #expect(AttemptBudget.maxAttempts(3).attempts == 3)
        for (budget, attempts) in [(AttemptBudget.maxRetries(3), 4), (.maxAttempts(3), 3), (.maxRetries(0), 1)] {
            let policy = try BackoffPolicy(budget: budget)
            var source = ScriptedUniforms([0.5])
            #expect(drawWaits(policy, using: &source).count == attempts - 1, "\(budget)")
        }
    }

    @Test func constantAndLinearSchedulesMatchTheirSums() throws {
        let constant = try BackoffPolicy(base: .ms(300), schedule: .constant, budget: .maxAttempts(6))
        #expect(constant.nominalStartTimes == [0, 0.3, 0.6, 0.9, 1.2, 1.5])
        let linear = try BackoffPolicy(
            base: .ms(100), schedule: .linear(increment: .ms(50)), cap: .ms(260), budget: .maxAttempts(7))
        var source = ScriptedUniforms([0.5])
        let waits = drawWaits(linear, using: &source).map { Double($0) / 1e9 }
        #expect(waits == [0.1, 0.15, 0.2, 0.25, 0.26, 0.26])
        #expect(abs(linear.expectedTotalWait! - waits.reduce(0, +)) < 1e-15)
        let equal = try BackoffPolicy(
            base: .ms(100), schedule: .linear(increment: .ms(50)), cap: .ms(260), jitter: .equal,
            budget: .maxAttempts(7))
        let squares = waits.map { $0 * $0 }.reduce(0, +)
        #expect(abs(equal.totalWaitMoments!.variance - squares / 48) < 1e-15)
        #expect(linear.firstCappedRetry == 5)
    }

    @Test func immediateScheduleNeverWaits() throws {
        for jitter in Jitter.allModes {
            let policy = try BackoffPolicy(schedule: .immediate, jitter: jitter, budget: .maxAttempts(4))
            var source = ScriptedUniforms([0.9])
            #expect(drawWaits(policy, using: &source) == [0, 0, 0], "\(jitter)")
            #expect(policy.totalWaitMoments == TotalWaitMoments(mean: 0, variance: 0))
            #expect(policy.maxAttempts(expectedTotalWaitAtMost: .seconds(1)) == .any)
        }
    }

    @Test func maxElapsedGivesUpInsteadOfWaitingPastTheLimit() throws {
        // Starts 0, 0.1, 0.3, 0.7, 1.5: the retry at 1.5 s is beyond 1 s, so the request stops at 4 attempts.
        let policy = try BackoffPolicy(base: .ms(100), budget: .maxAttempts(8), maxElapsed: .seconds(1))
        #expect(policy.nominalStartTimes == [0, 0.1, 0.3, 0.7])
        var source = ScriptedUniforms([0.5])
        #expect(drawWaits(policy, using: &source).count == 3)
        #expect(policy.expectedTotalWait == 0.7)
        let jittered = try BackoffPolicy(
            base: .ms(100), jitter: .full, budget: .maxAttempts(8), maxElapsed: .seconds(1))
        #expect(jittered.totalWaitMoments == nil, "no closed form for a truncated random sum")
        #expect(jittered.totalWaitRange.upperBound <= 1)
    }

    @Test func largestAttemptBudgetWithinAnExpectedWait() throws {
        let none = try BackoffPolicy(base: .ms(100), cap: nil)
        #expect(none.maxAttempts(expectedTotalWaitAtMost: .ms(1500)) == .attempts(5))  // 1.5 s exactly
        #expect(none.maxAttempts(expectedTotalWaitAtMost: .ms(1499)) == .attempts(4))
        #expect(none.maxAttempts(expectedTotalWaitAtMost: .zero) == .attempts(1))
        let full = try BackoffPolicy(base: .ms(100), cap: nil, jitter: .full)
        #expect(full.maxAttempts(expectedTotalWaitAtMost: .ms(750)) == .attempts(5))
        let capped = try BackoffPolicy(base: .ms(100), cap: .seconds(1))
        // 1.5 s for the first 5 attempts, then 1 s per attempt: 1.5 + 10 = 11.5 s at 15 attempts.
        #expect(capped.maxAttempts(expectedTotalWaitAtMost: .ms(11_500)) == .attempts(15))
    }

    @Test func decorrelatedBudgetAgreesWithItsMoments() throws {
        for cap: Duration? in [nil, .seconds(1)] {
            let policy = try BackoffPolicy(base: .ms(100), cap: cap, jitter: .decorrelated())
            let limit = Duration.seconds(30)
            guard case .attempts(let n) = policy.maxAttempts(expectedTotalWaitAtMost: limit) else {
                Issue.record("no count")
                return
            }
            let within = try BackoffPolicy(base: .ms(100), cap: cap, jitter: .decorrelated(), budget: .maxAttempts(n))
            let beyond = try BackoffPolicy(
                base: .ms(100), cap: cap, jitter: .decorrelated(), budget: .maxAttempts(n + 1))
            #expect(within.expectedTotalWait! <= 30, "cap \(String(describing: cap)), n = \(n)")
            #expect(beyond.expectedTotalWait! > 30, "cap \(String(describing: cap)), n = \(n)")
        }
    }
}
