/// The presets: each library's default policy, declared once. The sources were read at the
/// versions named; `Tests/BackoffCLITests/PresetTests.swift` checks each against its library's
/// formula, written out independently, and `scripts/conformance` compares every preset whose
/// library installs here (``Preset/Evidence/codeRun(version:)``) with the library's own code.
extension Preset {
    /// Every preset, in the order `backoff presets` lists them.
    public static let all: [Preset] = [
        awsSDKStandard, awsSDKStandard143, awsSDKAdaptive, awsSDKSwift, awsSDKSwiftAdaptive, grpcConnection,
        pollyV8Default,
        pollyV8ExponentialJitter, pollyV8Hedging, finagleBackupRequests,
        pollyContribDecorrelated,
        envoyDefault, envoyHedgeOnPerTryTimeout, cenkaltiDefault, resilience4jExponentialRandom, alamofireDefault,
        swiftRetryDefault, sotoDefault,
        tenacityRandomExponential, tenacityExponentialJitter, urllib3Requests, googleAPICoreDefault,
        pythonBackoffExpo, kubernetesClientGo,
    ]

    /// botocore's standard retry mode under its 2026 rules (botocore 1.44): U(0, min(b 2^(attempt-1), 20 s))
    /// from b = 50 ms after a transient error and 1 s after a throttling error, 3 attempts, the 2026 quota.
    public static let awsSDKStandard = Preset(
        name: "aws-sdk-standard", library: "AWS SDKs, standard retry mode (botocore 1.44, the 2026 rules)",
        policy: awsStandardPolicy(base: .milliseconds(50), preset: "aws-sdk-standard"),
        throttlingPolicy: awsStandardPolicy(base: .seconds(1), preset: "aws-sdk-standard"),
        budget: .quota(.botocore2026),
        source: "boto/botocore botocore/retries/standard.py (ExponentialBackoff, RetryQuotaChecker) and quota.py, "
            + "botocore 1.44.5",
        evidence: .codeRun(version: "botocore 1.44.5"),
        notes: "rand * min(b 2^(attempt-1), 20 s), b = 50 ms after a 5xx, timeout or connection error and 1 s after "
            + "a throttling error (--failure-kind); 25 ms and 4 attempts for DynamoDB are not modelled; the retry "
            + "quota (500, 14 a retry, 5 after a throttling error) is shared by all simulated clients, as by the "
            + "requests of one SDK client; compared with botocore's own client (scripts/conformance)")

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
    public static let awsSDKAdaptive = Preset(
        name: "aws-sdk-adaptive", library: "AWS SDKs, adaptive retry mode (botocore 1.44)",
        policy: awsStandardPolicy(base: .milliseconds(50), preset: "aws-sdk-adaptive"),
        throttlingPolicy: awsStandardPolicy(base: .seconds(1), preset: "aws-sdk-adaptive"),
        budget: .quota(.botocore2026), adaptiveRateLimiter: AdaptiveRateLimiting(sdk: .botocore, scope: .shared),
        source: "boto/botocore botocore/retries/adaptive.py (ClientRateLimiter, RateClocker), bucket.py "
            + "(TokenBucket), throttling.py (CubicCalculator) and standard.py, botocore 1.44.5",
        evidence: .codeRun(version: "botocore 1.44.5"),
        notes: "aws-sdk-standard plus botocore's rate limiter (--throttle aws-adaptive:scope=shared): after the "
            + "first throttle every attempt waits for a token, the fill rate following CUBIC; the backoff and the "
            + "limiter's every state are compared with botocore's code (scripts/conformance); concurrent waiters "
            + "are woken as botocore's condition variable wakes its threads (the longest-waiting at each new fill "
            + "rate), at the instant, where real threads also race for the lock")

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

    /// Polly v8's hedging strategy with its defaults: one hedged action 2 s after the first.
    public static let pollyV8Hedging = Preset(
        name: "polly-v8-hedging", library: "Polly v8 (Polly.Core) HedgingStrategyOptions defaults",
        policy: policy("polly-v8-hedging") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(2), schedule: .constant, cap: nil, jitter: .disabled, budget: .maxAttempts(1))
        },
        hedging: try! Hedging(delay: .seconds(2), copies: 2),
        source: "App-vNext/Polly docs/strategies/hedging.md and src/Polly.Core/Hedging, commit 1b60751c",
        notes: "MaxHedgedAttempts 1 (copies in all 2), Delay 2 s, latency mode: a handled failure starts the next copy "
            + "at once, the first accepted result wins and the others are cancelled; when every copy fails Polly "
            + "returns the primary's failure (the model, the last one); no retry strategy (1 attempt)")

    /// Finagle's backup requests as ThriftMux's `MethodBuilder.idempotent(0.01)` sets them up: one
    /// backup at the p99 of recent latencies, the loser interrupted.
    public static let finagleBackupRequests = Preset(
        name: "finagle-backup-requests",
        library: "Finagle BackupRequestFilter (ThriftMux MethodBuilder.idempotent(maxExtraLoad = 0.01))",
        policy: policy("finagle-backup-requests") { () throws(PolicyError) in
            try BackoffPolicy(schedule: .constant, cap: nil, jitter: .disabled, budget: .maxAttempts(1))
        },
        hedging: try! Hedging(percentile: 0.99, cancelsLosers: true),
        source: "twitter/finagle finagle-core/src/main/scala/com/twitter/finagle/client/BackupRequestFilter.scala, "
            + "finagle-core/.../util/WindowedPercentileHistogram.scala and finagle-thriftmux MethodBuilder.idempotent",
        notes: "maxExtraLoad 1 % (idempotent has no default; 1 % is the value Finagle's docs discuss): one backup at "
            + "the p99 of the copies' latencies over 30 s, refreshed every 3 s, none in the first 3 s, within a budget "
            + "of 1 % of requests plus 10 a second; sendInterrupts as ThriftMux sets it (HTTP's idempotent does not: "
            + "--hedge on:percentile=0.99:cancel=no); MethodBuilder's retries and the client's retry budget are not "
            + "modelled (1 attempt)")

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

    /// tenacity's `wait_random_exponential()`: U(0, 2^(attempt-1) s), no cap.
    public static let tenacityRandomExponential = Preset(
        name: "tenacity-random-exponential", library: "tenacity wait_random_exponential() (Python)",
        policy: policy("tenacity-random-exponential") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 2), cap: nil, jitter: .full, capMode: .nominal,
                budget: .maxAttempts(5))
        },
        source: "jd/tenacity tenacity/wait.py (wait_random_exponential, wait_exponential), tenacity 9.2.1",
        evidence: .codeRun(version: "tenacity 9.2.1"),
        notes: "random.uniform(0, min(2^(attempt-1), max)): with max= it is the nominal cap (--cap); tenacity retries "
            + "forever by default (stop_never): 5 attempts here, as stop_after_attempt(5)")

    /// tenacity's `wait_exponential_jitter()`: 2^(attempt-1) s + U(0, 1 s), clamped at `max` (none by default).
    public static let tenacityExponentialJitter = Preset(
        name: "tenacity-exponential-jitter", library: "tenacity wait_exponential_jitter() (Python)",
        policy: policy("tenacity-exponential-jitter") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 2), cap: nil,
                jitter: .additive(spread: .seconds(1)),
                capMode: .clamp, budget: .maxAttempts(5))
        },
        source: "jd/tenacity tenacity/wait.py (wait_exponential_jitter), tenacity 9.2.1",
        evidence: .codeRun(version: "tenacity 9.2.1"),
        notes: "min(2^(attempt-1) + uniform(0, jitter), max), jitter 1 s: max= clamps after the draw (--cap); "
            + "tenacity retries forever by default: 5 attempts here, as stop_after_attempt(5)")

    /// requests through urllib3's `Retry(total=5, backoff_factor=0.5, backoff_jitter=1, backoff_max=6)`.
    public static let urllib3Requests = Preset(
        name: "urllib3-requests",
        library: "urllib3 Retry(total=5, backoff_factor=0.5, backoff_jitter=1, backoff_max=6)",
        policy: policy("urllib3-requests") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .milliseconds(500), schedule: .exponential(multiplier: 2), cap: .seconds(6),
                jitter: .additive(spread: .seconds(1)), capMode: .clamp, budget: .maxRetries(5),
                firstRetry: .immediate)
        },
        source: "urllib3/urllib3 src/urllib3/util/retry.py (Retry.get_backoff_time, increment), urllib3 2.8.0",
        evidence: .codeRun(version: "urllib3 2.8.0"),
        notes: "0 before the first retry, then min(6 s, 0.5 s 2^(k-1) + random() 1 s): the jitter added before the "
            + "clamp; a common configuration, not urllib3's default, which waits nothing at all (backoff_factor 0) "
            + "and which requests uses unless given a Retry")

    /// google-api-core's default `Retry`: U(0, min(2^(k-1) s, 60 s)) until 120 s have passed.
    public static let googleAPICoreDefault = Preset(
        name: "google-api-core-default", library: "google-api-core Retry() defaults (Python)",
        policy: policy("google-api-core-default") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 2), cap: .seconds(60), jitter: .full,
                capMode: .nominal, budget: .maxAttempts(100), maxElapsed: .seconds(120))
        },
        source: "googleapis/python-api-core google/api_core/retry/retry_base.py (exponential_sleep_generator, "
            + "_retry_error_helper) and retry_unary.py (retry_target), google-api-core 2.44.0",
        evidence: .codeRun(version: "google-api-core 2.44.0"),
        notes: "uniform(0, min(initial 2^(k-1), maximum)): the nominal cap; a retry whose sleep would end past the "
            + "120 s timeout is not made (--max-elapsed); attempts are unlimited (100 here, not reached)")

    /// python-backoff's `on_exception(backoff.expo, ...)` with its default `full_jitter`.
    public static let pythonBackoffExpo = Preset(
        name: "python-backoff-expo", library: "backoff on_exception(backoff.expo, ..., max_tries=5) (Python)",
        policy: policy("python-backoff-expo") { () throws(PolicyError) in
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 2), cap: nil, jitter: .full, capMode: .nominal,
                budget: .maxAttempts(5))
        },
        source: "litl/backoff backoff/_wait_gen.py (expo), _jitter.py (full_jitter), _sync.py, backoff 2.2.1",
        evidence: .codeRun(version: "backoff 2.2.1"),
        notes: "uniform(0, 2^(k-1) s): expo's max_value is the nominal cap (--cap); max_tries has no default "
            + "(retries forever): 5 here")

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
    private static let envoyHedge: Hedging = {
        do { return try Hedging(perTryTimeout: .milliseconds(100), copies: 2) } catch {
            preconditionFailure("envoy-hedge-on-per-try-timeout's hedge: \(error)")
        }
    }()

    /// Envoy's default cluster limit of 3 retries in flight, as a concurrency budget without a percentage.
    private static let concurrencyBudget: ConcurrencyBudget = {
        do { return try ConcurrencyBudget(budgetPercent: 0, minRetryConcurrency: 3) } catch {
            preconditionFailure("envoy-default's budget: \(error)")
        }
    }()

    /// botocore's standard-mode policy from base `b`: U(0, min(b 2^(attempt-1), 20 s)), 3 attempts.
    private static func awsStandardPolicy(base: Duration, preset: String) -> BackoffPolicy {
        policy(preset) { () throws(PolicyError) in
            try BackoffPolicy(
                base: base, schedule: .exponential(multiplier: 2), cap: .seconds(20), jitter: .full, capMode: .nominal,
                budget: .maxAttempts(3))
        }
    }

    /// A preset's policy; its parameters are constants, so a failure is a mistake in this file.
    private static func policy(_ name: String, _ make: () throws(PolicyError) -> BackoffPolicy) -> BackoffPolicy {
        do { return try make() } catch { preconditionFailure("the preset \(name) is not a valid policy: \(error)") }
    }
}
