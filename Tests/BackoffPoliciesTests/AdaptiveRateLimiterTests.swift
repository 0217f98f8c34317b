import BackoffPolicies
import Testing

/// The AWS SDKs' client-side rate limiter against the test vector the Go, Java and Swift SDKs ship,
/// and its invariants. (scripts/conformance compares every state with botocore's own limiter.)
@Suite struct AdaptiveRateLimiterTests {
    /// A response every 0.2 s from t = 0, throttles at 2.0 s and 3.2 s: the fill rate is 0.5/s (the
    /// floor) up to 1.0 s, then C t³ = 0.4 t³ (0.6912 at 1.2 s ... 2.3328 at 1.8 s), as the SDKs'
    /// vector has it. At the first throttle it is β times the measured rate: botocore measures
    /// 0.8 x 4 + 0.2 x 5.696 = 4.3392/s (its first half-second bucket counts the responses at 0, 0.2,
    /// 0.4 and 0.6 s), so 3.03744, where the Go, Java and Swift SDKs' vector has 3.02848 (0.7 x 4.3264,
    /// as if three were counted). scripts/conformance checks 3.03744 against botocore itself.
    @Test func theSDKsSharedVector() {
        var limiter = AdaptiveRateLimiter(createdAt: 0)
        let expected: [Double: Double] = [1.2: 0.6912, 1.4: 1.0976, 1.6: 1.6384, 1.8: 2.3328, 2.0: 0.7 * 4.3392]
        for i in 0...20 {
            let t = Double(i) * 0.2
            let throttled = i == 10 || i == 16
            limiter.recordResponse(throttled: throttled, at: t)
            if t <= 1.0 + 1e-12 { #expect(limiter.fillRate == 0.5, "t = \(t)") }
            for (time, rate) in expected where abs(time - t) < 1e-9 {
                #expect(
                    abs(limiter.fillRate - rate) < 1e-9, "t = \(t): fill rate \(limiter.fillRate), expected \(rate)")
            }
            #expect(limiter.isEnabled == (i >= 10), "t = \(t)")
        }
    }

    /// Before the first throttle nothing waits; after it a send waits (1 - tokens) / fill rate, the
    /// tokens never go below 0 or above the capacity, and the capacity is the fill rate, at least 1.
    @Test func sendsWaitOnlyOnceEnabledAndTokensStayInTheBucket() {
        var limiter = AdaptiveRateLimiter(createdAt: 0.3)
        #expect(limiter.acquire(at: 0.3) == 0)
        // A throttle before the first half-second boundary: the measured rate is still 0, so the fill
        // rate falls to its floor.
        limiter.recordResponse(throttled: true, at: 0.35)
        #expect(limiter.isEnabled && limiter.fillRate == 0.5 && limiter.capacity == 1)
        var clock = 0.4
        for _ in 0..<6 {
            let wait = limiter.acquire(at: clock)
            #expect(wait > 0 && wait <= 2 + 1e-12, "a token comes within 1 / 0.5 s, got \(wait)")
            clock += wait
            #expect(limiter.tokens >= 0 && limiter.tokens <= limiter.capacity)
            limiter.recordResponse(throttled: false, at: clock + 0.02)
            #expect(limiter.capacity == max(1, limiter.capacity) && limiter.fillRate >= 0.5)
        }
    }
}
