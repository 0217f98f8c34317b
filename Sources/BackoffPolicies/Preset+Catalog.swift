/// The presets: each library's default policy, declared once. The sources were read at the
/// versions named; `Tests/BackoffCLITests/PresetTests.swift` checks each against its library's
/// formula, written out independently, and `scripts/conformance` compares every preset whose
/// library installs here (``Preset/Evidence/codeRun(version:)``) with the library's own code.
extension Preset {
    /// Every preset, in the order `backoff presets` lists them.
    public static let all: [Preset] = [
        awsSDKStandard, awsSDKStandard143, awsSDKAdaptive, awsSDKLegacy, awsSDKSwift, awsSDKSwiftAdaptive,
        grpcConnection,
        pollyV8Default,
        pollyV8ExponentialJitter, pollyV8Hedging, finagleBackupRequests,
        pollyContribDecorrelated,
        envoyDefault, envoyHedgeOnPerTryTimeout, cenkaltiDefault, resilience4jExponentialRandom, alamofireDefault,
        swiftRetryDefault, sotoDefault,
        tenacityRandomExponential, tenacityExponentialJitter, urllib3Requests, googleAPICoreDefault,
        pythonBackoffExpo, kubernetesClientGo,
    ]

    /// gRPC connection backoff as grpc-go computes it: 1 s, then min(1.6^k s, 120 s) ± 20 %.
    public static let grpcConnection = Preset(
        name: "grpc-connection", library: "gRPC connection backoff (grpc-go)",
        policy: policy("grpc-connection") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 1.6), cap: .seconds(120),
                jitter: .proportional(fraction: 0.2),
                capMode: .nominal, budget: .maxAttempts(100), firstRetry: .unjittered)
        },
        source: "grpc/grpc-go internal/backoff/backoff.go (Exponential.Backoff) and backoff/backoff.go "
            + "(DefaultConfig), grpc-go 1.33.3; grpc/grpc doc/connection-backoff.md",
        evidence: .codeRun(version: "grpc-go 1.33.3"),
        notes: "the first wait is the base delay exactly (Backoff(0) returns it unjittered), later ones "
            + "min(1.6^k, 120 s) (1 + 0.2 U(-1, 1)); reconnection is not limited (100 attempts here); gRPC's C core "
            + "is said to jitter the first wait too (read, not run); MIN_CONNECT_TIMEOUT (20 s) is not modelled")

    /// Envoy's router retries: one retry of a whole number of milliseconds below 25 ms, windows that
    /// stop growing at 250 ms, at most 3 retries in flight per cluster.
    public static let envoyDefault = Preset(
        name: "envoy-default", library: "Envoy router retries",
        policy: policy("envoy-default") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(25), schedule: .exponential(multiplier: 2), cap: .milliseconds(250), jitter: .full,
                capMode: .nominal, budget: .maxRetries(1), granularity: .milliseconds(1))
        },
        budget: .concurrency(concurrencyBudget),
        source: "envoyproxy/envoy source/common/common/backoff_strategy.cc (JitteredExponentialBackOffStrategy) and "
            + "source/common/router/retry_state_impl.cc (25 ms base, 10 x base maximum, 1 retry)",
        notes: "random() % window ms with window = min(25 ms 2^(k-1), 250 ms): a whole number of ms in [0, window), "
            + "the window capped before the draw (older Envoy drew from (2^k - 1) 25 ms, clamped at 250 ms); the "
            + "cluster's max_retries (3 retries in flight) is the budget; Envoy cannot be built here: read, not run")

    /// Envoy's `hedge_on_per_try_timeout` with the router's retry defaults (1 retry, 25 ms base,
    /// 250 ms maximum) and a per-try timeout of 100 ms (the route has none by default).
    public static let envoyHedgeOnPerTryTimeout = Preset(
        name: "envoy-hedge-on-per-try-timeout", library: "Envoy router, hedge_on_per_try_timeout",
        policy: policy("envoy-hedge-on-per-try-timeout") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(25), schedule: .exponential(multiplier: 2), cap: .milliseconds(250), jitter: .full,
                capMode: .nominal, budget: .maxAttempts(1), granularity: .milliseconds(1))
        },
        budget: .concurrency(concurrencyBudget),
        hedging: envoyHedge,
        source: "envoyproxy/envoy source/common/router/router.cc (onSoftPerTryTimeout, onUpstreamHeaders, "
            + "resetOtherUpstreams), retry_state_impl.cc and source/common/common/backoff_strategy.cc",
        notes: "per_try_timeout has no default and hedging needs one: 100 ms here (--hedge "
            + "on:per-try-timeout=T for yours); a try unanswered after it stays in flight and a hedge goes after the "
            + "retry backoff (whole ms below min(25 ms 2^(k-1), 250 ms)); a hedge is a retry (num_retries 1: 2 "
            + "copies; max_retries 3 in flight); a 5xx of the newest try backs off and retries, one of a try hedged "
            + "already waits for the others; the first good response resets the rest; the route timeout (15 s) is "
            + "--timeout; retries are the hedge's (1 attempt); Envoy cannot be built here: read, not run")

    /// cenkalti/backoff's ExponentialBackOff defaults.
    public static let cenkaltiDefault = Preset(
        name: "cenkalti-default", library: "cenkalti/backoff ExponentialBackOff (Go)",
        policy: policy("cenkalti-default") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(500), schedule: .exponential(multiplier: 1.5), cap: .seconds(60),
                jitter: .proportional(fraction: 0.5), capMode: .nominal, budget: .maxAttempts(100),
                maxElapsed: .seconds(15 * 60))
        },
        source: "cenkalti/backoff exponential.go (NewExponentialBackOff, NextBackOff), cenkalti/backoff 4.1.3",
        evidence: .codeRun(version: "cenkalti/backoff 4.1.3"),
        notes: "MaxInterval caps the interval before the jitter; attempts are unlimited (100 here, not reached within "
            + "15 min); the library stops when the time before the wait passes 15 min, here a retry must start within it"
    )

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

    /// client-go's `retry.DefaultBackoff` through `wait.ExponentialBackoff`: 10 ms x 5^(k-1), each
    /// U(d, 1.1 d), 4 attempts.
    public static let kubernetesClientGo = Preset(
        name: "kubernetes-client-go", library: "Kubernetes client-go retry.DefaultBackoff (wait.Backoff)",
        policy: policy("kubernetes-client-go") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(10), schedule: .exponential(multiplier: 5), cap: nil,
                jitter: .upward(fraction: 0.1),
                capMode: .nominal, budget: .maxAttempts(4))
        },
        source: "kubernetes/client-go util/retry/util.go (DefaultBackoff: Steps 4, Duration 10 ms, Factor 5, "
            + "Jitter 0.1) and kubernetes/apimachinery pkg/util/wait/backoff.go (Backoff.Step, Jitter, "
            + "ExponentialBackoff)",
        notes: "duration + rand.Float64() 0.1 duration: never below the nominal wait (upward jitter); Steps 4 "
            + "makes 4 attempts and 3 waits (10, 50, 250 ms before the jitter); no Cap; k8s.io/apimachinery has "
            + "no Debian package here: read, not run")

    /// Envoy's hedge on a 100 ms per-try timeout, with the router's retry defaults.
    static let envoyHedge: Hedging = {
        do { return try Hedging(perTryTimeout: .milliseconds(100), copies: 2) } catch {
            preconditionFailure("envoy-hedge-on-per-try-timeout's hedge: \(error)")
        }
    }()

    /// Envoy's default cluster limit of 3 retries in flight, as a concurrency budget without a percentage.
    static let concurrencyBudget: ConcurrencyBudget = {
        do { return try ConcurrencyBudget(budgetPercent: 0, minRetryConcurrency: 3) } catch {
            preconditionFailure("envoy-default's budget: \(error)")
        }
    }()

    /// botocore's standard-mode policy from base `b`: U(0, min(b 2^(attempt-1), 20 s)), 3 attempts.
    static func awsStandardPolicy(base: Duration, preset: String, attempts: Int = 3) -> BackoffPolicy {
        policy(preset) { () throws(PolicyError) in
            try BackoffPolicy(
                base: base, schedule: .exponential(multiplier: 2), cap: .seconds(20), jitter: .full, capMode: .nominal,
                budget: .maxAttempts(attempts))
        }
    }

    /// A preset's policy; its parameters are constants, so a failure is a mistake in this file.
    static func policy(_ name: String, _ make: () throws(PolicyError) -> BackoffPolicy) -> BackoffPolicy {
        do { return try make() } catch { preconditionFailure("the preset \(name) is not a valid policy: \(error)") }
    }
}
