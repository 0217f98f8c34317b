/// Python's retry libraries: tenacity, urllib3 (requests), google-api-core and backoff.
extension Preset {
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
}
