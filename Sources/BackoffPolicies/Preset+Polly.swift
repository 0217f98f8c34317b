/// .NET's Polly (v8 and Polly.Contrib), Finagle's backup requests and resilience4j.
extension Preset {
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
}
