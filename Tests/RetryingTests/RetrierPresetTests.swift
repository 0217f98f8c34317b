import BackoffPolicies
import Foundation
import Retrying
import Testing

/// An app retries with a library's behaviour by naming its preset: the policy, the budget and the
/// Retry-After handling all come from the one value that `backoff --preset` analyses.
@Suite struct RetrierPresetTests {
    /// Alamofire's policy has no jitter: 0.5 s × 2^retryCount, 2 retries, so the attempts start at
    /// exactly 0, 0.5 s and 1.5 s of virtual time, and the third failure ends the request.
    @Test func alamofiresPresetRetriesAtHalfASecondAndOneAndAHalf() async throws {
        let clock = VirtualClock()
        let recorder = Recorder()
        let retrier = Retrier(preset: .alamofireDefault, clock: clock)
        #expect(retrier.budget == nil && retrier.retryAfterHandling == .ignore)
        let result = await drive(clock) {
            var random = SystemUniforms()
            return try await retrier.run(using: &random) { () async throws -> Int in
                recorder.attempt(at: clock.now.offset)
                throw ServerError(status: 503)
            }
        }
        #expect(recorder.attempts == [.zero, .milliseconds(500), .milliseconds(1500)])
        guard case .failure(let error as RetryError) = result else {
            Issue.record("expected a RetryError")
            return
        }
        #expect(error.attempts == 3)
    }

    /// The AWS SDK's preset brings its retry quota: two retries after transient errors spend 2 × 14
    /// of its 500, and every wait lies in its window U(0, min(0.05 s 2^(k-1), 20 s)).
    @Test func theAWSPresetSpendsItsRetryQuota() async throws {
        let clock = VirtualClock()
        let recorder = Recorder()
        let retrier = Retrier(preset: .awsSDKStandard, clock: clock)
        let budget = try #require(retrier.budget)
        let result = await drive(clock) {
            var random = SystemUniforms()
            return try await retrier.run(using: &random) { () async throws -> Int in
                recorder.attempt(at: clock.now.offset)
                throw ServerError(status: 500)
            }
        }
        guard case .failure = result else {
            Issue.record("expected a failure")
            return
        }
        let times = recorder.attempts
        #expect(times.count == 3)
        let waits = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(waits.count == 2 && waits[0] <= .milliseconds(50) && waits[1] <= .milliseconds(100), "\(waits)")
        guard case .quota(let quota) = budget.current else {
            Issue.record("expected the retry quota")
            return
        }
        #expect(quota.capacity == 500 - 2 * 14)
    }

    /// README's two ways to build a retrier: a preset's value, or a policy of your own with a budget.
    @Test func theReadmesRetriersAreThePresetsAndThePolicys() throws {
        let retrier = Retrier(preset: .awsSDKStandard)
        #expect(retrier.policy == Preset.awsSDKStandard.policy && retrier.budget?.current == .quota(.botocore2026))
        let custom = try {
            let policy = try BackoffPolicy(
                base: .milliseconds(100), cap: .seconds(5), jitter: .full,
                budget: .maxAttempts(5), maxElapsed: .seconds(20))
            let retrier = Retrier(policy: policy, budget: SharedRetryBudget(.tokenBucket(.grpcExample)))
            return retrier
        }()
        #expect(custom.policy.maxAttempts == 5 && custom.policy.maxElapsed == .seconds(20))
    }

    /// The article's retrier from a gRPC service config: its policy is A6's full jitter below
    /// min(0.1 s × 2^(n−1), 0.3 s), its four attempts (maxAttempts 4) start within those windows, and
    /// its budget is the config's retryThrottling.
    @Test func anAppRetriesByItsGrpcServiceConfig() async throws {
        let serviceConfigJSON = Data(
            """
            {"methodConfig": [{"name": [{"service": "helloworld.Greeter"}],
              "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "0.3s",
                              "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}],
             "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}
            """.utf8)
        let config = try GrpcServiceConfig(json: serviceConfigJSON, method: "helloworld.Greeter/SayHello")
        let retrier = Retrier(preset: config.preset)
        #expect(retrier.budget?.current == .tokenBucket(try TokenBucketBudget(maxTokens: 10, tokenRatio: 0.1)))
        #expect(config.remarks.isEmpty && config.sources[.cap] == "methodConfig[0].retryPolicy.maxBackoff")

        let clock = VirtualClock()
        let recorder = Recorder()
        let timed = Retrier(preset: config.preset, clock: clock)
        let result = await drive(clock) {
            var random = SystemUniforms()
            return try await timed.run(using: &random) { () async throws -> Int in
                recorder.attempt(at: clock.now.offset)
                throw ServerError(status: 503)
            }
        }
        guard case .failure(let error as RetryError) = result else {
            Issue.record("expected a RetryError")
            return
        }
        #expect(error.attempts == 4)
        let waits = zip(recorder.attempts.dropFirst(), recorder.attempts).map { $0 - $1 }
        let windows: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(300)]
        #expect(waits.count == 3 && zip(waits, windows).allSatisfy { $0 >= .zero && $0 <= $1 }, "\(waits)")

        // A method no config names is an error that says so.
        #expect(throws: GrpcServiceConfig.Invalid.self) {
            try GrpcServiceConfig(json: serviceConfigJSON, method: "other.Service/Call")
        }
    }

    /// The article's retrier from an AWS shared config profile: the adaptive mode's preset with the
    /// profile's 6 attempts, its quota as the shared budget.
    @Test func anAppRetriesByItsAWSProfile() throws {
        let sharedConfigText = """
            [profile batch]
            retry_mode = adaptive
            max_attempts = 6
            """
        let profile = try AWSSharedConfig(bytes: Array(sharedConfigText.utf8), profile: "batch")
        let retrier = Retrier(preset: profile.preset)
        #expect(retrier.policy.maxAttempts == 6 && retrier.budget?.current == .quota(.botocore2026))
        #expect(profile.preset.adaptiveRateLimiter == Preset.awsSDKAdaptive.adaptiveRateLimiter)
        #expect(throws: AWSSharedConfig.Invalid.self) {
            try AWSSharedConfig(bytes: Array(sharedConfigText.utf8), profile: "prod")
        }
    }

    /// soto honours a server's Retry-After; a preset's value says so, and so does its retrier.
    @Test func sotosPresetHonoursRetryAfter() {
        #expect(Retrier(preset: .sotoDefault).retryAfterHandling == .honor)
        #expect(Preset.all.filter { $0.retryAfterHandling != .ignore }.map(\.name) == ["soto-default"])
    }
}
