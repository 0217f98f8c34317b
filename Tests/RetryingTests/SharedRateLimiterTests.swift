import BackoffPolicies
import Retrying
import Synchronization
import Testing

/// The client-side rate limiter in the runtime (`Retrier(preset: .awsSDKAdaptive, ...)`), on a
/// `VirtualClock`: every attempt waits as the model says, and the limiter ends in the model's state.
@Suite struct SharedRateLimiterTests {
    struct Throttled: Error {}

    /// A server of 10 tokens a second (a bucket of 1, full at first) on the virtual clock.
    final class RateLimitedServer: Sendable {
        private let state = Mutex((tokens: 1.0, last: 0.0))
        func answer(at seconds: Double) -> Bool {
            state.withLock { state in
                state.tokens = min(1, state.tokens + (seconds - state.last) * 10)
                state.last = seconds
                guard state.tokens >= 1 else { return false }
                state.tokens -= 1
                return true
            }
        }
    }

    /// 60 requests in a row from one retrier with aws-sdk-adaptive's limiter. Each attempt's start
    /// (the end of the previous answer, or of the backoff before a retry) and send time are
    /// recorded; replayed through the model's `acquire`, each token wait is the runtime's (to 2 ns,
    /// its sleeps rounded up to whole nanoseconds), and the limiter's state at the end is the model's.
    @Test func theRuntimeWaitsAsTheModel() async throws {
        let clock = VirtualClock()
        let retrier = Retrier(preset: .awsSDKAdaptive, clock: clock, isThrottling: { $0 is Throttled })
        let limiter = try #require(retrier.rateLimiter)
        let server = RateLimitedServer()
        // (time looked for a token, time sent, throttled) per attempt, in seconds.
        let log = Mutex<[(start: Double, sent: Double, throttled: Bool)]>([])
        let nextStart = Mutex(0.0)
        let result = await drive(clock) {
            var random = SystemUniforms()
            for _ in 0..<60 {
                _ = try? await retrier.run(
                    using: &random,
                    onEvent: { event in
                        if case .willRetry(_, let wait, _) = event {
                            nextStart.withLock { $0 += Double(wait.wholeNanoseconds) / 1e9 }
                        }
                    }
                ) { () async throws -> Int in
                    let sent = Double(clock.now.offset.wholeNanoseconds) / 1e9
                    let accepted = server.answer(at: sent)
                    let start = nextStart.withLock { $0 }
                    log.withLock { $0.append((start, sent, !accepted)) }
                    nextStart.withLock { $0 = sent }
                    if !accepted { throw Throttled() }
                    return 1
                }
            }
            return 0
        }
        _ = try result.get()
        var model = AdaptiveRateLimiter(createdAt: 0)
        let attempts = log.withLock { $0 }
        #expect(attempts.contains { $0.throttled }, "the server never throttled: the test tests nothing")
        #expect(attempts.contains { $0.sent - $0.start > 0.01 }, "no attempt waited for a token")
        for (index, attempt) in attempts.enumerated() {
            let wait = model.acquire(at: attempt.start)
            #expect(
                abs(attempt.start + wait - attempt.sent) <= 2e-9,
                "attempt \(index + 1): sent at \(attempt.sent), the model at \(attempt.start + wait)")
            model.recordResponse(throttled: attempt.throttled, at: attempt.sent)
        }
        let runtime = limiter.current
        #expect(runtime.isEnabled == model.isEnabled)
        #expect(abs(runtime.fillRate - model.fillRate) <= 1e-9 * max(1, model.fillRate))
        #expect(abs(runtime.measuredRate - model.measuredRate) <= 1e-9 * max(1, model.measuredRate))
        #expect(abs(runtime.tokens - model.tokens) <= 1e-6, "tokens \(runtime.tokens) against \(model.tokens)")
    }

    /// A retrier without a limiter never waits for a token; a preset without one makes none.
    @Test func onlyTheAdaptivePresetBringsALimiter() {
        let clock = VirtualClock()
        #expect(Retrier(preset: .awsSDKStandard, clock: clock).rateLimiter == nil)
        #expect(Retrier(preset: .awsSDKAdaptive, clock: clock).rateLimiter != nil)
    }

    /// Java v2 and smithy-swift feed their limiter only the errors they retry (and the final
    /// success): a throttle that ends a request (one attempt, no retry) leaves their limiter off,
    /// where botocore's and Go v2's turn on; a retried throttle turns every SDK's on.
    @Test(arguments: RateLimiterSDK.allCases) func onlyRetriedThrottlesReachJavaAndSmithy(sdk: RateLimiterSDK)
        async throws
    {
        for attempts in [1, 2] {
            let clock = VirtualClock()
            let limiter = SharedRateLimiter(clock: clock, sdk: sdk, isThrottling: { $0 is Throttled })
            let policy = try BackoffPolicy(
                base: .milliseconds(10), cap: .seconds(1), jitter: .full, budget: .maxAttempts(attempts))
            let retrier = Retrier(policy: policy, clock: clock, rateLimiter: limiter)
            _ = await drive(clock) {
                var random = SystemUniforms()
                return try? await retrier.run(using: &random) { () async throws -> Int in throw Throttled() }
            }
            let enabled = limiter.current.isEnabled
            #expect(enabled == (attempts == 2 || sdk.feed == .everyAnswer), "\(sdk), \(attempts) attempts")
        }
    }
}
