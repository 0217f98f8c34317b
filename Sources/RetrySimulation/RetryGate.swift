import BackoffPolicies

/// What a scenario's clients consult beyond their policy, shared by all of them: nothing
/// (``NoLimits``) or the ``RetryLimits`` of the scenario (``LimitsInForce``).
///
/// The scenario driver is generic over its gate, so a run without a budget, breaker or throttle is
/// compiled with ``NoLimits``, whose every method is empty: it pays no check per attempt.
protocol RetryGate {
    /// A gate for `clients` clients; only called with limits the gate can hold. What its limits
    /// draw (a concurrency limit's probe) comes from a stream rooted at `seed`.
    init(limits: RetryLimits, clients: Int, failureKind: FailureKind, seed: UInt64)

    /// A request's first attempt starts at `time` (nanoseconds).
    mutating func requestStarted(at time: Int64)

    /// Whether an attempt may leave at `time`: the throttle (one uniform drawn from `uniform`, when
    /// there is a throttle) and the breaker decide.
    mutating func admitsAttempt<Random: UniformSource>(at time: Int64, using uniform: inout Random) -> Bool

    /// One look by `client`'s attempt at `time` for a token of the client-side rate limiter: 0 when
    /// it took one (or there is no limiter, or it is not on), else the nanoseconds to wait before
    /// looking again, or `Int64.max` to wait until woken (`takeTokenWakes()`).
    mutating func tokenWait(client: Int, at time: Int64) -> Int64

    /// The generation `client`'s next look (a `dispatch` event) carries, and whether a look of
    /// `generation` is its latest (if so it happens; a stale one is dropped).
    func tokenWaitGeneration(client: Int) -> Int32
    mutating func wakesForToken(client: Int, generation: Int32) -> Bool

    /// The next waiter the limiter wakes now, to look again at once (botocore's condition variable,
    /// Java's queue): handed over once; `nil` when there is none.
    mutating func popTokenWake() -> (client: Int, generation: Int32)?

    /// The nanoseconds all requests waited for tokens so far.
    var tokenWaitTotal: Int64 { get }

    /// The nanoseconds `client`'s request, now ended, waited for tokens in all; the count starts
    /// again for its next request.
    mutating func takeRequestTokenWait(client: Int) -> Int64

    /// The server answered `client`'s attempt (or it timed out) at `time`; `wasRetry` when the attempt
    /// was a retry, `throttled` when the answer was a throttling error.
    mutating func recordAnswer(success: Bool, throttled: Bool, client: Int, wasRetry: Bool, at time: Int64)

    /// `client` has decided what follows that answer (`retried` when it retries): the client-side
    /// rate limiter hears of the answer if its SDK feeds it one (`RateLimiterSDK.feeds`).
    mutating func feedRateLimiter(success: Bool, throttled: Bool, retried: Bool, client: Int, at time: Int64)

    /// The client-side rate limiters' mean fill rate now (the shared one's, or the mean over the
    /// clients' own), per second; `nil` without a limiter.
    var meanFillRate: Double? { get }

    /// Whether the budget grants `client` a retry at `time`, after a timeout or a failure.
    mutating func grantsRetry(client: Int, afterTimeout: Bool, at time: Int64) -> Bool

    /// `client` will retry: the retry the budget just granted (and its cost) is now in flight.
    mutating func retryScheduled(client: Int)

    /// `client`'s request ended (whatever its outcome).
    mutating func requestEnded(client: Int)

    /// `client`'s attempt, admitted, left at `time`: it holds a place under the clients'
    /// concurrency limit, if there is one.
    mutating func attemptSent(client: Int, at time: Int64)

    /// `client`'s attempt in flight ended at `time` with `answer` (its answer reached it, or it
    /// timed out): its place under the concurrency limit is free, and its round trip a sample.
    mutating func attemptEnded(client: Int, _ answer: ClientAnswer, at time: Int64)

    /// The clients' concurrency limit now; `nil` without one.
    var concurrencyLimitNow: Int? { get }

    /// Room for clients numbered below `count` (a run that numbers its clients as they come). Only
    /// for limits without a client-side rate limiter, whose clients are fixed when it is made.
    mutating func addClients(upTo count: Int)
}
