/// Which AWS SDK's client-side rate limiter (``AdaptiveRateLimiter``) to model. They share CUBIC,
/// the measuring and the floors; they differ in their starting state, in how a request waits for
/// its token, and in which answers feed the limiter.
///
/// ```
///                 starts with                 measures and runs CUBIC from   a token wait          fed on
/// botocore        fill rate 1, capacity 1     its creation (floor(t0) s)     exact                 every answer
/// go-v2           fill rate 0, capacity 0     its creation (floor(t0) s)     exact (sleep loop)    every answer
/// smithy-swift    fill rate 0, capacity 0     its creation (floor(t0) s)     exact (sleep loop)    retried errors, the final success
/// java-v2         fill rate 0, capacity 0     its clock's zero (t = 0)       whole ms, rounded up  retried throttles, the final success
/// ```
/// A non-throttling error counts as a success, except for java-v2, which never hears of one.
/// Sources: botocore `retries/adaptive.py`, `bucket.py`; aws-sdk-go-v2 `aws/retry/adaptive*.go`;
/// smithy-swift `ClientSideRateLimiter`, `DefaultRetryStrategy`; aws-sdk-java-v2
/// `RateLimiterTokenBucket`, `DefaultAdaptiveRetryStrategy`.
public enum RateLimiterSDK: String, CaseIterable, Hashable, Sendable {
    case botocore
    case goV2 = "go-v2"
    case smithySwift = "smithy-swift"
    case javaV2 = "java-v2"

    /// Which answers an SDK feeds its limiter.
    public enum Feed: Hashable, Sendable {
        /// Every answer, as it comes (botocore, Go v2).
        case everyAnswer
        /// The errors the strategy retries (after the attempt and quota checks pass) and the
        /// request's final success (smithy-swift).
        case retriedErrorsAndFinalSuccess
        /// The throttles the strategy retries and the request's final success (Java v2).
        case retriedThrottlesAndFinalSuccess
    }

    public var feed: Feed {
        switch self {
        case .botocore, .goV2: .everyAnswer
        case .smithySwift: .retriedErrorsAndFinalSuccess
        case .javaV2: .retriedThrottlesAndFinalSuccess
        }
    }

    /// Whether the limiter hears of an answer: `throttled` or not, a `success` or not, and whether
    /// the strategy `retried` after it.
    public func feeds(success: Bool, throttled: Bool, retried: Bool) -> Bool {
        switch feed {
        case .everyAnswer: true
        case .retriedErrorsAndFinalSuccess: success || retried
        case .retriedThrottlesAndFinalSuccess: success || (throttled && retried)
        }
    }

    /// botocore's bucket starts at a fill rate and capacity of 1, its refill clock at the
    /// limiter's creation; the others' at 0, their refill clock at the first answer.
    var startsAtRateOne: Bool { self == .botocore }

    /// Java v2 keeps its measuring buckets and CUBIC clock from its clock's zero (`System.nanoTime`
    /// in seconds; time 0 here), where the others start them at their creation.
    var clocksFromZero: Bool { self == .javaV2 }

    /// Java v2 schedules a waiting request's next look after the wait rounded up to whole
    /// milliseconds (`Duration.ofMillis(ceil(ms))`); the others sleep the exact wait.
    var roundsWaitsToMilliseconds: Bool { self == .javaV2 }
}
