/// A retry policy as a library ships it by default, written as the command-line options that
/// reproduce it, with the source it was read from and where the model departs from it.
///
/// `--preset NAME` fills every option the preset sets and the user did not give; options given on
/// the command line win (a given `--max-attempts` also replaces a preset's `--max-retries`, and the
/// reverse). Options a command does not have (a budget outside `simulate`) are left out, with a
/// warning.
struct Preset: Sendable {
    let name: String
    let library: String
    /// Option values by option name, as they would be typed.
    let options: [(name: String, value: String)]
    /// The file or spec read, and its version.
    let source: String
    /// Where the library's behaviour and this model part, if anywhere.
    let notes: String

    func value(_ option: String) -> String? { options.first { $0.name == option }?.value }

    static func named(_ name: String) -> Preset? { all.first { $0.name == name } }

    /// Options that say the same thing two ways: giving one replaces the preset's other.
    static let alternatives: [Set<String>] = [["max-attempts", "max-retries"]]

    static let all: [Preset] = [
        Preset(
            name: "aws-sdk-standard", library: "AWS SDKs, standard retry mode (botocore)",
            options: [("jitter", "full"), ("base", "1s"), ("multiplier", "2"), ("cap", "20s"), ("cap-mode", "nominal"),
                      ("max-attempts", "3"), ("budget", "aws-quota")],
            source: "boto/botocore botocore/retries/standard.py (ExponentialBackoff, retry mode 2.0) and quota.py, commit 0719e795",
            notes: "rand * min(2^(attempt-1), 20 s): the cap is inside the window; the retry quota (500, 5 per retry, 10 "
                + "after a timeout) is shared by all simulated clients, as by the requests of one SDK client"),
        Preset(
            name: "aws-sdk-swift", library: "aws-sdk-swift (smithy-swift SmithyRetries)",
            options: [("jitter", "full"), ("base", "1s"), ("multiplier", "2"), ("cap", "20s"), ("cap-mode", "clamp"),
                      ("max-retries", "2"), ("budget", "aws-quota")],
            source: "smithy-lang/smithy-swift Sources/SmithyRetries/ExponentialBackoffStrategy.swift (commit 1b552f8e), "
                + "DefaultRetryStrategy.swift, RetryStrategyOptions (maxRetriesBase 2)",
            notes: "min(random * 2^attempt, 20 s): clamped after the draw, unlike botocore; same quota"),
        Preset(
            name: "grpc-connection", library: "gRPC connection backoff",
            options: [("jitter", "proportional:0.2"), ("base", "1s"), ("multiplier", "1.6"), ("cap", "120s"),
                      ("cap-mode", "nominal"), ("max-attempts", "100")],
            source: "grpc/grpc doc/connection-backoff.md, commit 27598d5f",
            notes: "reconnection is not limited in gRPC (100 attempts here); the spec leaves the first wait unjittered, "
                + "implementations such as grpc-go jitter it as here; MIN_CONNECT_TIMEOUT (20 s) is not modelled"),
        Preset(
            name: "polly-v8-default", library: "Polly v8 (Polly.Core) RetryStrategyOptions defaults",
            options: [("jitter", "none"), ("schedule", "constant"), ("base", "2s"), ("cap", "none"), ("max-retries", "3")],
            source: "App-vNext/Polly src/Polly.Core/Retry/RetryStrategyOptions.TResult.cs and RetryHelper.cs, commit 156a9bbe",
            notes: "BackoffType Constant, Delay 2 s, 3 retries, UseJitter false, no MaxDelay"),
        Preset(
            name: "polly-v8-exponential-jitter", library: "Polly v8, BackoffType Exponential with UseJitter",
            options: [("jitter", "polly-v2"), ("base", "2s"), ("cap", "none"), ("max-retries", "3")],
            source: "App-vNext/Polly src/Polly.Core/Retry/RetryHelper.cs (DecorrelatedJitterBackoffV2), commit 156a9bbe",
            notes: "Delay is the median first delay; MaxDelay (none by default) clamps each delay (--cap)"),
        Preset(
            name: "polly-contrib-decorrelated", library: "Polly.Contrib.WaitAndRetry AwsDecorrelatedJitterBackoff",
            options: [("jitter", "decorrelated"), ("cap-mode", "nominal"), ("base", "10ms"), ("cap", "100ms"),
                      ("decorrelated-factor", "3"), ("max-retries", "5")],
            source: "Polly-Contrib/Polly.Contrib.WaitAndRetry src/Polly.Contrib.WaitAndRetry/Backoff.AwsDecorrelatedJitter.cs, "
                + "commit 24cb116a",
            notes: "U(min, min(max, 3 prev)): the cap inside the draw; the function has no defaults, these are its README's"),
        Preset(
            name: "envoy-default", library: "Envoy router retries",
            options: [("jitter", "full"), ("base", "25ms"), ("multiplier", "2"), ("cap", "250ms"), ("cap-mode", "clamp"),
                      ("max-retries", "1"), ("budget", "concurrency:percent=0:min=3")],
            source: "envoyproxy/envoy source/common/common/backoff_strategy.cc (commit 18a4509c) and "
                + "source/common/router/retry_state_impl.cc (commit 00d9abb7)",
            notes: "random % ((2^k - 1) 25 ms), min 250 ms: exact at the default single retry; with more retries Envoy's "
                + "windows (2^k - 1) b are wider than b 2^(k-1) here; the cluster's max_retries (3 retries in flight) is the budget"),
        Preset(
            name: "cenkalti-default", library: "cenkalti/backoff ExponentialBackOff (Go)",
            options: [("jitter", "proportional:0.5"), ("base", "500ms"), ("multiplier", "1.5"), ("cap", "60s"),
                      ("cap-mode", "nominal"), ("max-attempts", "100"), ("max-elapsed", "15m")],
            source: "cenkalti/backoff exponential.go, commit 07049b92",
            notes: "MaxInterval caps the interval before the jitter; attempts are unlimited (100 here, not reached within "
                + "15 min); the library stops when the time before the wait passes 15 min, here a retry must start within it"),
        Preset(
            name: "resilience4j-exponential-random", library: "resilience4j IntervalFunction.ofExponentialRandomBackoff()",
            options: [("jitter", "proportional:0.5"), ("base", "500ms"), ("multiplier", "1.5"), ("cap", "none"),
                      ("cap-mode", "clamp"), ("max-attempts", "3")],
            source: "resilience4j/resilience4j resilience4j-core/.../core/IntervalFunction.java, commit 010b8d2b; "
                + "RetryConfig maxAttempts 3",
            notes: "no max interval by default (with one, the draw is clamped: --cap); the library truncates the nominal "
                + "wait to whole milliseconds (500, 750 ms at its 3 attempts: exact here)"),
        Preset(
            name: "alamofire-default", library: "Alamofire RetryPolicy",
            options: [("jitter", "none"), ("base", "500ms"), ("multiplier", "2"), ("cap", "none"), ("max-retries", "2")],
            source: "Alamofire/Alamofire Source/Features/RetryPolicy.swift, commit 43222536",
            notes: "0.5 s x 2^retryCount, no jitter, no cap; only idempotent methods and listed status codes are retried"),
        Preset(
            name: "swift-retry-default", library: "fumoboy007/swift-retry RetryConfiguration defaults",
            options: [("jitter", "full"), ("base", "1s"), ("multiplier", "2"), ("cap", "20s"), ("cap-mode", "nominal"),
                      ("max-attempts", "3")],
            source: "fumoboy007/swift-retry Sources/Retry/Backoff/Algorithms/FullJitterExponentialBackoff.swift "
                + "(commit 64405c30) and Sources/Retry/RetryConfiguration.swift (commit 2f167bdb)",
            notes: "random(in: 0...min(1 s x 2^attempt, 20 s)): the cap inside the window"),
        Preset(
            name: "soto-default", library: "soto-core RetryPolicyFactory.default (jitter)",
            options: [("jitter", "equal"), ("base", "1s"), ("multiplier", "2"), ("cap", "none"), ("max-retries", "4"),
                      ("retry-after", "honor")],
            source: "soto-project/soto-core Sources/SotoCore/RetryPolicy.swift, commit 00902b60",
            notes: "uniform in [2^a b/2, 2^a b) (equal jitter), no cap; an integer Retry-After is waited instead"),
    ]
}
