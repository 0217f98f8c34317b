import Foundation

/// The AWS SDKs' client-side rate limiter ("adaptive" retry mode), as botocore computes it
/// (`retries/adaptive.py`, `bucket.py`, `throttling.py`): a token bucket in front of every attempt
/// whose fill rate follows CUBIC after throttling responses.
///
/// ```
/// measured rate  responses counted in half-second buckets floor(2t)/2 (the first starts at
///                floor(t0), whole seconds), smoothed 0.8 new + 0.2 old at each new bucket
/// CUBIC          C = 0.4, β = 0.7, K = (W_max (1-β) / C)^(1/3), W_max = 0 and the clock at t0
///   success      rate = C (t - last_throttle - K)³ + W_max
///   throttle     W_max = measured (min(measured, fill rate) once enabled), rate = β W_max
/// fill rate      max(0.5, min(rate, 2 measured)); capacity max(1, that min); tokens kept <= capacity
/// acquire        only once enabled (after the first throttle, never turned off): a token, after
///                (1 - tokens) / fill rate when there is none; no debt
/// ```
/// Time is in seconds, as botocore's clock gives it, so every state can be compared with botocore's
/// and aws-sdk-go-v2's to 1e-9 (`scripts/conformance`). The other SDKs differ in their starting
/// state and token waits (``RateLimiterSDK``). Not thread-safe: a value, owned by its caller.
public struct AdaptiveRateLimiter: Hashable, Sendable {
    /// CUBIC's scale constant C and multiplicative decrease β; the fill rate's floor; the measuring
    /// buckets' width and smoothing.
    public static let scaleConstant = 0.4
    public static let beta = 0.7
    public static let minimumFillRate = 0.5
    public static let maximumRateScale = 2.0
    static let bucketScale = 2.0
    static let smoothing = 0.8

    /// The smoothed rate of responses, per second.
    public private(set) var measuredRate = 0.0
    /// The token bucket's fill rate, per second, and its capacity in tokens.
    public private(set) var fillRate: Double
    public private(set) var capacity: Double
    /// Tokens in the bucket as of its last refill.
    public private(set) var tokens = 0.0
    /// Whether the limiter limits yet: from the first throttling response on.
    public private(set) var isEnabled = false
    /// Whose limiter this is.
    public let sdk: RateLimiterSDK

    private var lastBucket: Double
    private var responsesInBucket = 0.0
    private var wMax = 0.0
    private var k = 0.0
    private var lastThrottle: Double
    /// When the bucket was last refilled; `nil` before its first refill.
    private var lastRefill: Double?

    /// `sdk`'s limiter created at `time` (seconds): the CUBIC clock starts there, and the measuring
    /// buckets at floor(time), except for Java v2, whose start at its clock's zero.
    public init(createdAt time: Double, sdk: RateLimiterSDK = .botocore) {
        self.sdk = sdk
        let origin = sdk.clocksFromZero ? 0 : time
        lastBucket = origin.rounded(.down)
        lastThrottle = origin
        fillRate = 0
        capacity = 0
        // botocore's TokenBucket(max_rate=1): its first refill, at its creation, starts its clock.
        if sdk.startsAtRateOne { setFillRate(1, at: time) }
    }

    /// The wait before a request sent at `time` may go, in seconds (0 until the limiter is enabled),
    /// taking its token: the bucket refills to `time`, and when it holds less than one token the
    /// request waits until the fill rate has made one.
    public mutating func acquire(at time: Double) -> Double {
        var wait = tryAcquire(at: time)
        guard wait > 0 else { return 0 }
        if sdk.roundsWaitsToMilliseconds {
            // Java's notifier looks again after each whole-millisecond wait until the token is there.
            var next = tryAcquire(at: time + wait)
            while next > 0 {
                wait += next
                next = tryAcquire(at: time + wait)
            }
            return wait
        }
        refill(at: time + wait)
        tokens = max(0, tokens - 1)
        return wait
    }

    /// One look at the bucket by a request at `time`, as one of botocore's threads looks: 0 when it
    /// took a token (or the limiter is not on yet), else how long to sleep before looking again,
    /// (1 - tokens) / fill rate. Several requests waiting at once each look again when they wake;
    /// whichever finds the token first takes it. Java v2's wait is rounded up to whole milliseconds.
    public mutating func tryAcquire(at time: Double) -> Double {
        guard isEnabled else { return 0 }
        refill(at: time)
        if tokens >= 1 {
            tokens -= 1
            return 0
        }
        let wait = (1 - tokens) / fillRate
        return sdk.roundsWaitsToMilliseconds ? (wait * 1_000).rounded(.up) / 1_000 : wait
    }

    /// Records a response at `time`: a throttling error, or any other answer (a success, or a
    /// non-throttling error, which botocore counts as a success). Which answers reach the limiter
    /// is the caller's: ``RateLimiterSDK/feeds(success:throttled:retried:)``.
    public mutating func recordResponse(throttled: Bool, at time: Double) {
        let measured = clock(at: time)
        let rate: Double
        if throttled {
            wMax = isEnabled ? min(measured, fillRate) : measured
            k = Self.zeroPoint(wMax)
            lastThrottle = time
            rate = wMax * Self.beta
            isEnabled = true
        } else {
            let dt = time - lastThrottle - k
            rate = Self.scaleConstant * dt * dt * dt + wMax
        }
        setFillRate(min(rate, Self.maximumRateScale * measured), at: time)
    }

    /// K = (W_max (1 - β) / C)^(1/3).
    static func zeroPoint(_ wMax: Double) -> Double { pow(wMax * (1 - beta) / scaleConstant, 1.0 / 3.0) }

    /// Counts a response at `time` and returns the measured rate.
    private mutating func clock(at time: Double) -> Double {
        let bucket = (time * Self.bucketScale).rounded(.down) / Self.bucketScale
        responsesInBucket += 1
        if bucket > lastBucket {
            let current = responsesInBucket / (bucket - lastBucket)
            measuredRate = current * Self.smoothing + measuredRate * (1 - Self.smoothing)
            responsesInBucket = 0
            lastBucket = bucket
        }
        return measuredRate
    }

    /// botocore's `max_rate` setter: refill, then the new rate (floored) and capacity.
    private mutating func setFillRate(_ value: Double, at time: Double) {
        refill(at: time)
        fillRate = max(value, Self.minimumFillRate)
        capacity = value >= 1 ? value : 1
        tokens = min(tokens, capacity)
    }

    private mutating func refill(at time: Double) {
        guard let last = lastRefill else {
            lastRefill = time
            return
        }
        tokens = min(capacity, tokens + (time - last) * fillRate)
        lastRefill = time
    }
}
