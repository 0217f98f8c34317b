import BackoffPolicies
import Testing

/// The AWS SDKs' client-side rate limiters against the test vector the Go, Java and Swift SDKs ship,
/// where they differ, and their invariants. (scripts/conformance compares every state with
/// botocore's and aws-sdk-go-v2's own limiters.)
@Suite struct AdaptiveRateLimiterTests {
    /// The vector the Java v2 SDK ships (`RateLimiterTokenBucketTest`; smithy-swift's
    /// `ClientSideRateLimiterTests.test_case3` is its first 11 steps, aws-sdk-go-v2's
    /// `TestAdaptiveRateLimit_Update` the same): a limiter made at t = 0, a response every 0.2 s from
    /// 0.2 s, throttles at 2.0 s and 3.2 s; the measured rate and the fill rate after each, to the
    /// vector's 6 decimals. Every SDK's limiter gives it: they differ in what this vector does not
    /// touch (the bucket's start, token waits, which answers are fed).
    @Test(arguments: RateLimiterSDK.allCases) func theSDKsSharedVector(sdk: RateLimiterSDK) {
        let vector: [(time: Double, throttle: Bool, measured: Double, fill: Double)] = [
            (0.2, false, 0, 0.5), (0.4, false, 0, 0.5), (0.6, false, 4.8, 0.5), (0.8, false, 4.8, 0.5),
            (1.0, false, 4.16, 0.5), (1.2, false, 4.16, 0.6912), (1.4, false, 4.16, 1.0976),
            (1.6, false, 5.632, 1.6384), (1.8, false, 5.632, 2.3328), (2.0, true, 4.3264, 3.02848),
            (2.2, false, 4.3264, 3.486639), (2.4, false, 4.3264, 3.821874), (2.6, false, 5.66528, 4.053386),
            (2.8, false, 5.66528, 4.200373), (3.0, false, 4.333056, 4.282037), (3.2, true, 4.333056, 2.997426),
            (3.4, false, 4.333056, 3.452226),
        ]
        var limiter = AdaptiveRateLimiter(createdAt: 0, sdk: sdk)
        for step in vector {
            limiter.recordResponse(throttled: step.throttle, at: step.time)
            #expect(abs(limiter.measuredRate - step.measured) < 5e-7, "\(sdk) at \(step.time): \(limiter.measuredRate)")
            #expect(abs(limiter.fillRate - step.fill) < 5e-7, "\(sdk) at \(step.time): \(limiter.fillRate)")
            #expect(limiter.isEnabled == (step.time >= 2.0), "\(sdk) at \(step.time)")
        }
    }

    /// Where the SDKs differ. botocore's bucket starts at a fill rate and capacity of 1 with its
    /// refill clock at its creation, so a response 0.4 s later finds 0.4 tokens; the others start at
    /// 0 and 0 and start refilling at the first response, so they hold none. Java's clocks start
    /// at its clock's zero: made at 10.3 s, its first half-second bucket spans 0 to 10.5 s, so a
    /// response at 10.7 s measures 0.8 x 1 / 10.5, where the others' bucket starts at floor(10.3) =
    /// 10 s: 0.8 x 1 / 0.5.
    @Test func theSDKsDifferInTheirStartingState() {
        for sdk in RateLimiterSDK.allCases {
            var limiter = AdaptiveRateLimiter(createdAt: 10.3, sdk: sdk)
            #expect(limiter.fillRate == (sdk == .botocore ? 1 : 0) && limiter.capacity == (sdk == .botocore ? 1 : 0))
            limiter.recordResponse(throttled: false, at: 10.7)
            let tokens = sdk == .botocore ? 0.4 : 0
            #expect(abs(limiter.tokens - tokens) < 1e-12, "\(sdk): \(limiter.tokens) tokens")
            let measured = sdk == .javaV2 ? 0.8 / 10.5 : 0.8 / 0.5
            #expect(abs(limiter.measuredRate - measured) < 1e-12, "\(sdk): measured \(limiter.measuredRate)")
        }
    }

    /// Java v2 rounds each token wait up to whole milliseconds, and its waiting request takes the
    /// token at that later time; the others wait exactly (1 - tokens) / rate.
    /// A throttle at 0.3 s (measured rate 0: the fill rate falls to 0.5/s) finds 0.3 tokens in
    /// botocore's bucket (1/s since 0) and none in the others'; 0.1 ms later 0.00005 more.
    @Test func javaRoundsTokenWaitsUpToWholeMilliseconds() {
        for sdk in RateLimiterSDK.allCases {
            var limiter = AdaptiveRateLimiter(createdAt: 0, sdk: sdk)
            limiter.recordResponse(throttled: true, at: 0.3)
            #expect(limiter.fillRate == 0.5 && limiter.isEnabled)
            let tokens = (sdk == .botocore ? 0.3 : 0) + 0.0001 * 0.5
            let wait = limiter.acquire(at: 0.3001)
            let exact = (1 - tokens) / 0.5
            if sdk == .javaV2 {
                // 1,999.9 ms rounded up: 2 s, by when the bucket is full (its capacity is 1 token).
                #expect(abs(wait - 2.0) < 1e-12, "java-v2 waits \(wait)")
                #expect(limiter.tokens == 0, "java-v2 keeps \(limiter.tokens)")
            } else {
                #expect(abs(wait - exact) < 1e-12, "\(sdk) waits \(wait), expected \(exact)")
                #expect(limiter.tokens < 1e-9, "\(sdk) keeps \(limiter.tokens)")
            }
        }
    }

    /// Which answers reach the limiter: botocore and Go v2 hear of every one; smithy-swift of the
    /// errors it retries and the final success; Java v2 of the throttles it retries and the final
    /// success.
    @Test func theSDKsFeedTheirLimitersDifferentAnswers() {
        let answers: [(success: Bool, throttled: Bool, retried: Bool)] = [
            (true, false, false), (false, true, true), (false, true, false), (false, false, true),
            (false, false, false),
        ]
        let fed: [RateLimiterSDK: [Bool]] = [
            .botocore: [true, true, true, true, true], .goV2: [true, true, true, true, true],
            .smithySwift: [true, true, false, true, false], .javaV2: [true, true, false, false, false],
        ]
        for (sdk, expected) in fed {
            let got = answers.map { sdk.feeds(success: $0.success, throttled: $0.throttled, retried: $0.retried) }
            #expect(got == expected, "\(sdk)")
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
            #expect(limiter.capacity == max(1, limiter.fillRate) && limiter.fillRate >= 0.5, "\(limiter.capacity)")
        }
    }
}
