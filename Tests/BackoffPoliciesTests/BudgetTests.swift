import BackoffPolicies
import RetrySimulation
import Stochastics
import Testing

@Suite struct TokenBucketBudgetTests {
    @Test func tokensStayInRangeAndFailuresStopRetries() throws {
        var bucket = TokenBucketBudget.grpcExample
        #expect(bucket.allowsRetry && bucket.tokens == 10)
        var failures = 0
        while bucket.allowsRetry {
            bucket.record(success: false)
            failures += 1
        }
        #expect(failures == 5, "10 tokens, threshold 5: the fifth failure reaches it")
        for _ in 0..<20 { bucket.record(success: false) }
        #expect(bucket.tokens == 0)
        for _ in 0..<200 { bucket.record(success: true) }
        #expect(bucket.tokens == 10 && bucket.allowsRetry)
        #expect(throws: BudgetError.self) { try TokenBucketBudget(maxTokens: 0, tokenRatio: 0.1) }
    }

    /// The steady state: tokens drift by -f + (1 - f) r per attempt, so retries stay allowed when the
    /// failure fraction f is below r / (1 + r) = 1/11 (r = 0.1) and stop above it. Tested 1 % on
    /// either side of the threshold, with failures spread evenly (failure i of k in n attempts at
    /// attempt ⌊i n / k⌋), so the walk is deterministic: 10 failures in 111 attempts (f = 0.0901)
    /// gain 101 × 0.1 − 10 = +0.1 token a cycle and stay allowed; 10 in 109 (f = 0.0917) lose 0.1 a
    /// cycle and stop. A token ratio 5 % off either way (0.095 or 0.105) turns the first to −0.405
    /// or the second to +0.395 a cycle, and fails. Over 2,000 cycles the last half is all allowed or
    /// all refused.
    @Test func grpcStopsRetryingAboveTheClosedFormThreshold() throws {
        for (failures, cycle, expectAllowed) in [(10, 111, true), (10, 109, false)] {
            var bucket = TokenBucketBudget.grpcExample
            var allowedInLastHalf = 0
            let cycles = 2_000
            for attempt in 0..<(cycles * cycle) {
                let position = attempt % cycle
                // Failure i sits at ⌊i · cycle / failures⌋ within the cycle.
                let failed = (0..<failures).contains { $0 * cycle / failures == position }
                if attempt >= cycles * cycle / 2 && bucket.allowsRetry { allowedInLastHalf += 1 }
                bucket.record(success: !failed)
            }
            let share = Double(allowedInLastHalf) / Double(cycles * cycle / 2)
            #expect(share == (expectAllowed ? 1 : 0), "\(failures) failures in \(cycle) attempts: allowed \(share)")
        }
        #expect(abs(TokenBucketBudget.grpcExample.failureFractionThreshold - 1 / 11.0) < 1e-15)
    }
}

@Suite struct RetryQuotaTests {
    @Test func retriesSpendTheQuotaAndSuccessfulRetriesRefundIt() {
        var quota = RetryQuota.awsStandard
        var granted = 0
        while quota.acquireRetry(afterTimeout: false) != nil { granted += 1 }
        #expect(granted == 100 && quota.capacity == 0)
        quota.recordSuccess(retryCost: nil)
        #expect(quota.capacity == 1)
        var timeouts = RetryQuota.awsStandard
        var afterTimeouts = 0
        while timeouts.acquireRetry(afterTimeout: true) != nil { afterTimeouts += 1 }
        #expect(afterTimeouts == 50)
        var refunded = RetryQuota.awsStandard
        let cost = refunded.acquireRetry(afterTimeout: false)
        refunded.recordSuccess(retryCost: cost)
        #expect(refunded.capacity == 500, "a successful retry costs nothing in the end")
        refunded.recordSuccess(retryCost: nil)
        #expect(refunded.capacity == 500, "never above the maximum")
    }
}

@Suite struct AdaptiveThrottleTests {
    @Test func rejectionProbabilityFollowsTheSREFormula() throws {
        var throttle = try AdaptiveThrottle(k: 2)
        #expect(throttle.rejectionProbability(at: 0) == 0)
        for t in 0..<100 {
            throttle.recordRequest(at: Int64(t) * 1_000_000)
            if t < 40 { throttle.recordAccept(at: Int64(t) * 1_000_000) }
        }
        // 100 requests, 40 accepts: (100 - 80) / 101.
        #expect(abs(throttle.rejectionProbability(at: 100_000_000) - 20.0 / 101) < 1e-15)
        var starved = try AdaptiveThrottle(k: 2)
        for t in 0..<9 { starved.recordRequest(at: Int64(t)) }
        #expect(abs(starved.rejectionProbability(at: 10) - 9.0 / 10) < 1e-15)
        // After the window, the counts expire.
        #expect(starved.rejectionProbability(at: 200_000_000_000) == 0)
        #expect(throws: BudgetError.self) { try AdaptiveThrottle(k: 0.5) }
    }
}

@Suite struct RatioBudgetTests {
    @Test func retriesStayWithinTheRatioPlusTheReserve() throws {
        var budget = try RatioBudget(percentCanRetry: 0.1, minRetriesPerSecond: 1, window: .seconds(10))
        // No requests: only the reserve (1 per second x 10 s) allows retries.
        var reserve = 0
        while budget.acquireRetry(at: 0) { reserve += 1 }
        #expect(reserve == 10)
        // 1,000 requests in the window add 100 more.
        for t in 0..<1000 { budget.recordRequest(at: Int64(t) * 1_000_000) }
        var more = 0
        while budget.acquireRetry(at: 1_000_000_000) { more += 1 }
        #expect(more == 100)
        #expect(throws: BudgetError.self) { try RatioBudget(percentCanRetry: 1.5) }
    }
}

@Suite struct ConcurrencyBudgetTests {
    @Test func theLimitIsAFractionOfActiveRequestsWithAFloor() {
        let budget = ConcurrencyBudget.envoyDefault
        #expect(budget.allowsRetry(activeRequests: 0, activeRetries: 2))
        #expect(!budget.allowsRetry(activeRequests: 0, activeRetries: 3))
        #expect(budget.allowsRetry(activeRequests: 100, activeRetries: 19))
        #expect(!budget.allowsRetry(activeRequests: 100, activeRetries: 20))
    }
}

@Suite struct CircuitBreakerTests {
    /// A timeline: failures open the breaker, it rejects while open, half-opens after the delay,
    /// and closes after its probes succeed.
    @Test func opensRejectsHalfOpensAndCloses() throws {
        var breaker = try CircuitBreaker(
            failureThreshold: 0.5, minimumRequests: 4, window: .nanoseconds(1_000), openDuration: .nanoseconds(100),
            probes: 2)
        for (t, success) in [(0, false), (1, false), (2, true)] {
            let allowed = breaker.allowsRequest(at: Int64(t))
            #expect(allowed)
            breaker.record(success: success, at: Int64(t))
        }
        #expect(breaker.state == .closed, "3 requests: below the minimum of 4")
        breaker.record(success: false, at: 4)
        #expect(breaker.state == .open(until: 104), "3 failures of 4 requests: 75 % >= 50 %")
        let whileOpen = breaker.allowsRequest(at: 50)
        let probes = (breaker.allowsRequest(at: 104), breaker.allowsRequest(at: 105))
        let third = breaker.allowsRequest(at: 106)
        #expect(!whileOpen && probes.0 && probes.1)
        #expect(!third, "two probes at most")
        breaker.record(success: true, at: 110)
        breaker.record(success: true, at: 111)
        #expect(breaker.state == .closed)
        let afterClosing = breaker.allowsRequest(at: 112)
        #expect(afterClosing)
    }

    @Test func aFailedProbeOpensAgain() throws {
        var breaker = try CircuitBreaker(
            failureThreshold: 1, minimumRequests: 1, window: .nanoseconds(1_000), openDuration: .nanoseconds(10),
            probes: 1)
        breaker.record(success: false, at: 0)
        #expect(breaker.state == .open(until: 10))
        let probe = breaker.allowsRequest(at: 10)
        #expect(probe)
        breaker.record(success: false, at: 12)
        #expect(breaker.state == .open(until: 22))
    }
}
