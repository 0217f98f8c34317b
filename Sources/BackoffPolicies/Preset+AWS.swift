/// The AWS SDKs' standard and adaptive retry modes (botocore, aws-sdk-swift) and Soto.
extension Preset {
    /// botocore's standard retry mode under its 2026 rules (botocore 1.44): U(0, min(b 2^(attempt-1), 20 s))
    /// from b = 50 ms after a transient error and 1 s after a throttling error, 3 attempts, the 2026 quota.
    public static let awsSDKStandard = botocore(.standard)

    /// botocore 1.43's standard retry mode (before the 2026 rules): U(0, min(2^(attempt-1) s, 20 s)).
    public static let awsSDKStandard143 = Preset(
        name: "aws-sdk-standard-1.43", library: "AWS SDKs, standard retry mode (botocore 1.43, before the 2026 rules)",
        policy: awsStandardPolicy(base: .seconds(1), preset: "aws-sdk-standard-1.43"),
        budget: .quota(.awsStandard),
        source: "boto/botocore botocore/retries/standard.py (ExponentialBackoff) and quota.py, botocore 1.43.127",
        evidence: .codeRun(version: "botocore 1.43.127"),
        notes: "rand * min(2^(attempt-1), 20 s) after any error: the cap is inside the window; the retry quota "
            + "(500, 5 a retry, 10 after a timeout) is shared by all simulated clients; compared with botocore's own "
            + "client (scripts/conformance)")

    /// botocore's adaptive retry mode: the standard mode (2026 rules) with the client-side rate
    /// limiter in front of every attempt, shared as by the threads of one SDK client.
    public static let awsSDKAdaptive = botocore(.adaptive)

    /// botocore's legacy retry mode: rand × 2^(attempt-1) s, no cap, 5 attempts, no retry quota.
    public static let awsSDKLegacy = botocore(.legacy)

    /// botocore 1.44's retry mode `mode` with `attempts` attempts, the first included (a shared
    /// config's `max_attempts`; 1 to ``AWSSharedConfig/attemptLimit``).
    static func botocore(_ mode: AWSSharedConfig.RetryMode, maxAttempts attempts: Int? = nil) -> Preset {
        switch mode {
        case .standard:
            Preset(
                name: "aws-sdk-standard", library: "AWS SDKs, standard retry mode (botocore 1.44, the 2026 rules)",
                policy: awsStandardPolicy(base: .milliseconds(50), preset: "aws-sdk-standard", attempts: attempts ?? 3),
                throttlingPolicy: awsStandardPolicy(
                    base: .seconds(1), preset: "aws-sdk-standard", attempts: attempts ?? 3),
                budget: .quota(.botocore2026),
                source: "boto/botocore botocore/retries/standard.py (ExponentialBackoff, RetryQuotaChecker) and "
                    + "quota.py, botocore 1.44.5",
                evidence: .codeRun(version: "botocore 1.44.5"),
                notes: "rand * min(b 2^(attempt-1), 20 s), b = 50 ms after a 5xx, timeout or connection error and 1 s "
                    + "after a throttling error (--failure-kind); 25 ms and 4 attempts for DynamoDB are not modelled; "
                    + "the retry quota (500, 14 a retry, 5 after a throttling error) is shared by all simulated "
                    + "clients, as by the requests of one SDK client; compared with botocore's own client "
                    + "(scripts/conformance)")
        case .adaptive:
            Preset(
                name: "aws-sdk-adaptive", library: "AWS SDKs, adaptive retry mode (botocore 1.44)",
                policy: awsStandardPolicy(base: .milliseconds(50), preset: "aws-sdk-adaptive", attempts: attempts ?? 3),
                throttlingPolicy: awsStandardPolicy(
                    base: .seconds(1), preset: "aws-sdk-adaptive", attempts: attempts ?? 3),
                budget: .quota(.botocore2026),
                adaptiveRateLimiter: AdaptiveRateLimiting(sdk: .botocore, scope: .shared),
                source: "boto/botocore botocore/retries/adaptive.py (ClientRateLimiter, RateClocker), bucket.py "
                    + "(TokenBucket), throttling.py (CubicCalculator) and standard.py, botocore 1.44.5",
                evidence: .codeRun(version: "botocore 1.44.5"),
                notes:
                    "aws-sdk-standard plus botocore's rate limiter (--throttle aws-adaptive:scope=shared): after the "
                    + "first throttle every attempt waits for a token, the fill rate following CUBIC; the backoff and the "
                    + "limiter's every state are compared with botocore's code (scripts/conformance); concurrent waiters "
                    + "are woken as botocore's condition variable wakes its threads (the longest-waiting at each new fill "
                    + "rate), at the instant, where real threads also race for the lock")
        case .legacy:
            Preset(
                name: "aws-sdk-legacy", library: "AWS SDKs, legacy retry mode (botocore 1.44)",
                policy: policy("aws-sdk-legacy") { () throws(PolicyError) in
                    try BackoffPolicy(
                        base: .seconds(1), schedule: .exponential(multiplier: 2), cap: nil, jitter: .full,
                        budget: .maxAttempts(attempts ?? 5))
                },
                source: "boto/botocore botocore/retryhandler.py (delay_exponential, MaxAttemptsDecorator) and "
                    + "data/_retry.json, botocore 1.44.5",
                evidence: .codeRun(version: "botocore 1.44.5"),
                notes: "rand * 2^(attempt-1) s with no cap after any retryable error, throttling included; 5 attempts; "
                    + "no retry quota; DynamoDB's 50 ms without jitter and 10 attempts are not modelled; compared with "
                    + "botocore's own client (scripts/conformance)")
        }
    }

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

    /// aws-sdk-swift's adaptive rate limiting mode: aws-sdk-swift's backoff and quota with
    /// smithy-swift's client-side rate limiter, shared by the requests of one SDK client.
    public static let awsSDKSwiftAdaptive = Preset(
        name: "aws-sdk-swift-adaptive", library: "aws-sdk-swift, adaptive rate limiting (smithy-swift SmithyRetries)",
        policy: awsSDKSwift.policy, budget: .quota(.awsStandard),
        adaptiveRateLimiter: AdaptiveRateLimiting(sdk: .smithySwift, scope: .shared),
        source: "smithy-lang/smithy-swift Sources/SmithyRetries/ExponentialBackoffStrategy.swift (commit 1b552f8e), "
            + "DefaultRetryStrategy.swift (acquireSendToken, refreshRetryTokenForRetry, recordSuccess) and "
            + "ClientSideRateLimiter.swift",
        notes: "aws-sdk-swift plus smithy-swift's limiter (--throttle aws-adaptive:sdk=smithy-swift): it hears only "
            + "of the errors the strategy retries (after the attempt and quota checks) and of each final success, "
            + "starts at a fill rate and capacity of 0, and a request sleeps and looks again until its token is "
            + "there; the 2026 rules (useNewRetries2026) are not modelled; Swift SDKs cannot be fetched here: read, "
            + "not run")

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
}
