/// The presets: each library's default policy, declared once. The sources were read at the
/// commits named; `Tests/BackoffCLITests/PresetTests.swift` checks each against its library's
/// formula, written out independently.
extension Preset {
    /// Every preset, in the order `backoff presets` lists them.
    public static let all: [Preset] = [
        awsSDKStandard, awsSDKSwift, grpcConnection, pollyV8Default, pollyV8ExponentialJitter, pollyContribDecorrelated,
        envoyDefault, cenkaltiDefault, resilience4jExponentialRandom, alamofireDefault, swiftRetryDefault, sotoDefault,
    ]

    /// botocore's standard retry mode: U(0, min(2^(attempt-1) s, 20 s)), 3 attempts, the retry quota.
    public static let awsSDKStandard = Preset(
        name: "aws-sdk-standard", library: "AWS SDKs, standard retry mode (botocore)",
        policy: policy("aws-sdk-standard") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 2), cap: .seconds(20), jitter: .full,
                capMode: .nominal,
                budget: .maxAttempts(3))
        },
        budget: .quota(.awsStandard),
        source:
            "boto/botocore botocore/retries/standard.py (ExponentialBackoff, retry mode 2.0) and quota.py, commit 0719e795",
        notes: "rand * min(2^(attempt-1), 20 s): the cap is inside the window; the retry quota (500, 5 per retry, 10 "
            + "after a timeout) is shared by all simulated clients, as by the requests of one SDK client")

    /// smithy-swift: min(random × 2^attempt s, 20 s), 2 retries, the retry quota.
    public static let awsSDKSwift = Preset(
        name: "aws-sdk-swift", library: "aws-sdk-swift (smithy-swift SmithyRetries)",
        policy: policy("aws-sdk-swift") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 2), cap: .seconds(20), jitter: .full,
                capMode: .clamp,
                budget: .maxRetries(2))
        },
        budget: .quota(.awsStandard),
        source: "smithy-lang/smithy-swift Sources/SmithyRetries/ExponentialBackoffStrategy.swift (commit 1b552f8e), "
            + "DefaultRetryStrategy.swift, RetryStrategyOptions (maxRetriesBase 2)",
        notes: "min(random * 2^attempt, 20 s): clamped after the draw, unlike botocore; same quota")

    /// gRPC connection backoff: min(1.6^k s, 120 s) ± 20 %.
    public static let grpcConnection = Preset(
        name: "grpc-connection", library: "gRPC connection backoff",
        policy: policy("grpc-connection") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 1.6), cap: .seconds(120),
                jitter: .proportional(fraction: 0.2),
                capMode: .nominal, budget: .maxAttempts(100))
        },
        source: "grpc/grpc doc/connection-backoff.md, commit 27598d5f",
        notes: "reconnection is not limited in gRPC (100 attempts here); the spec leaves the first wait unjittered, "
            + "implementations such as grpc-go jitter it as here; MIN_CONNECT_TIMEOUT (20 s) is not modelled")

    /// Polly v8's defaults: 3 retries of a constant 2 s.
    public static let pollyV8Default = Preset(
        name: "polly-v8-default", library: "Polly v8 (Polly.Core) RetryStrategyOptions defaults",
        policy: policy("polly-v8-default") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(2), schedule: .constant, cap: nil, jitter: .disabled, budget: .maxRetries(3))
        },
        source:
            "App-vNext/Polly src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs and RetryHelper.cs, commit 156a9bbe",
        notes: "BackoffType Constant, Delay 2 s, 3 retries, UseJitter false, no MaxDelay")

    /// Polly v8 with BackoffType Exponential and UseJitter: DecorrelatedJitterBackoffV2.
    public static let pollyV8ExponentialJitter = Preset(
        name: "polly-v8-exponential-jitter", library: "Polly v8, BackoffType Exponential with UseJitter",
        policy: policy("polly-v8-exponential-jitter") { () throws(PolicyError) in
            try BackoffPolicy(base: .seconds(2), cap: nil, jitter: .pollyV2, budget: .maxRetries(3))
        },
        source: "App-vNext/Polly src/Polly.Core/Retry/RetryHelper.cs (DecorrelatedJitterBackoffV2), commit 156a9bbe",
        notes: "Delay is the median first delay; MaxDelay (none by default) clamps each delay (--cap)")

    /// Polly.Contrib's AwsDecorrelatedJitterBackoff with its README's parameters.
    public static let pollyContribDecorrelated = Preset(
        name: "polly-contrib-decorrelated", library: "Polly.Contrib.WaitAndRetry AwsDecorrelatedJitterBackoff",
        policy: policy("polly-contrib-decorrelated") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(10), cap: .milliseconds(100), jitter: .decorrelated(factor: 3), capMode: .nominal,
                budget: .maxRetries(5))
        },
        source:
            "Polly-Contrib/Polly.Contrib.WaitAndRetry src/Polly.Contrib.WaitAndRetry/Backoff.AwsDecorrelatedJitter.cs, "
            + "commit 24cb116a",
        notes: "U(min, min(max, 3 prev)): the cap inside the draw; the function has no defaults, these are its README's"
    )

    /// Envoy's router retries: one retry of U(0, 25 ms), at most 3 retries in flight per cluster.
    public static let envoyDefault = Preset(
        name: "envoy-default", library: "Envoy router retries",
        policy: policy("envoy-default") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(25), schedule: .exponential(multiplier: 2), cap: .milliseconds(250), jitter: .full,
                capMode: .clamp, budget: .maxRetries(1))
        },
        budget: .concurrency(concurrencyBudget),
        source: "envoyproxy/envoy source/common/common/backoff_strategy.cc (commit 18a4509c) and "
            + "source/common/router/retry_state_impl.cc (commit 00d9abb7)",
        notes: "random % ((2^k - 1) 25 ms), min 250 ms: exact at the default single retry; with more retries Envoy's "
            + "windows (2^k - 1) b are wider than b 2^(k-1) here; the cluster's max_retries (3 retries in flight) is the budget"
    )

    /// cenkalti/backoff's ExponentialBackOff defaults.
    public static let cenkaltiDefault = Preset(
        name: "cenkalti-default", library: "cenkalti/backoff ExponentialBackOff (Go)",
        policy: policy("cenkalti-default") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(500), schedule: .exponential(multiplier: 1.5), cap: .seconds(60),
                jitter: .proportional(fraction: 0.5), capMode: .nominal, budget: .maxAttempts(100),
                maxElapsed: .seconds(15 * 60))
        },
        source: "cenkalti/backoff exponential.go, commit 07049b92",
        notes: "MaxInterval caps the interval before the jitter; attempts are unlimited (100 here, not reached within "
            + "15 min); the library stops when the time before the wait passes 15 min, here a retry must start within it"
    )

    /// resilience4j's IntervalFunction.ofExponentialRandomBackoff() with RetryConfig's 3 attempts.
    public static let resilience4jExponentialRandom = Preset(
        name: "resilience4j-exponential-random", library: "resilience4j IntervalFunction.ofExponentialRandomBackoff()",
        policy: policy("resilience4j-exponential-random") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(500), schedule: .exponential(multiplier: 1.5), cap: nil,
                jitter: .proportional(fraction: 0.5),
                capMode: .clamp, budget: .maxAttempts(3))
        },
        source: "resilience4j/resilience4j resilience4j-core/.../core/IntervalFunction.java, commit 010b8d2b; "
            + "RetryConfig maxAttempts 3",
        notes: "no max interval by default (with one, the draw is clamped: --cap); the library truncates the nominal "
            + "wait to whole milliseconds (500, 750 ms at its 3 attempts: exact here)")

    /// Alamofire's RetryPolicy: 0.5 s × 2^retryCount, 2 retries.
    public static let alamofireDefault = Preset(
        name: "alamofire-default", library: "Alamofire RetryPolicy",
        policy: policy("alamofire-default") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(500), schedule: .exponential(multiplier: 2), cap: nil, jitter: .disabled,
                budget: .maxRetries(2))
        },
        source: "Alamofire/Alamofire Source/Features/RetryPolicy.swift, commit 43222536",
        notes: "0.5 s x 2^retryCount, no jitter, no cap; only idempotent methods and listed status codes are retried")

    /// fumoboy007/swift-retry's RetryConfiguration defaults.
    public static let swiftRetryDefault = Preset(
        name: "swift-retry-default", library: "fumoboy007/swift-retry RetryConfiguration defaults",
        policy: policy("swift-retry-default") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 2), cap: .seconds(20), jitter: .full,
                capMode: .nominal,
                budget: .maxAttempts(3))
        },
        source: "fumoboy007/swift-retry Sources/Retry/Backoff/Algorithms/FullJitterExponentialBackoff.swift "
            + "(commit 64405c30) and Sources/Retry/RetryConfiguration.swift (commit 2f167bdb)",
        notes: "random(in: 0...min(1 s x 2^attempt, 20 s)): the cap inside the window")

    /// soto-core's RetryPolicyFactory.default: equal jitter, 4 retries, Retry-After honoured.
    public static let sotoDefault = Preset(
        name: "soto-default", library: "soto-core RetryPolicyFactory.default (jitter)",
        policy: policy("soto-default") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 2), cap: nil, jitter: .equal,
                budget: .maxRetries(4))
        },
        retryAfterHandling: .honor,
        source: "soto-project/soto-core Sources/SotoCore/RetryPolicy.swift, commit 00902b60",
        notes: "uniform in [2^a b/2, 2^a b) (equal jitter), no cap; an integer Retry-After is waited instead")

    /// Envoy's default cluster limit of 3 retries in flight, as a concurrency budget without a percentage.
    private static let concurrencyBudget: ConcurrencyBudget = {
        do { return try ConcurrencyBudget(budgetPercent: 0, minRetryConcurrency: 3) } catch {
            preconditionFailure("envoy-default's budget: \(error)")
        }
    }()

    /// A preset's policy; its parameters are constants, so a failure is a mistake in this file.
    private static func policy(_ name: String, _ make: () throws(PolicyError) -> BackoffPolicy) -> BackoffPolicy {
        do { return try make() } catch { preconditionFailure("the preset \(name) is not a valid policy: \(error)") }
    }
}
