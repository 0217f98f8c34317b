/// Hedged requests ("The Tail at Scale", Dean & Barroso, 2013; gRPC's A6 `hedgingPolicy`): copy k
/// of a request is sent (k − 1)·delay after the first unless an answer came, up to `copies` in
/// all, and the first success wins (``Rule/fixedDelay(_:)``).
///
/// Two other rules (``Rule``) set when the next copy goes: Finagle's percentile of recent latencies
/// (``init(percentile:cancelsLosers:cancellationDelay:)``), and Envoy's per-try timeout followed by
/// a retry backoff (``init(perTryTimeout:copies:backoffBase:backoffMax:cancelsLosers:cancellationDelay:)``).
///
/// One value for every place a hedge is used: `simulate --hedge` runs it against a capacity
/// server's replicas (RetrySimulation's `HedgedReplicas`, with its closed forms in
/// `Hedging+ClosedForms`), and `Retrier.hedge` runs real work with it (Retrying). Both follow A6:
/// a non-fatal failure sends the next copy at once, a fatal one ends the request and cancels every
/// copy, and the first success answers it.
public struct Hedging: Hashable, Sendable {
    /// When a request's next copy goes: one rule of three, each with what it needs and nothing else.
    public enum Rule: Hashable, Sendable {
        /// gRPC A6 and "The Tail at Scale": copy k goes (k − 1)·delay after the first (every copy
        /// at once with zero).
        case fixedDelay(Duration)
        /// Finagle's `BackupRequestFilter`: one backup, sent after this percentile (1 −
        /// `maxExtraLoad`) of the latencies seen lately, within a budget of `maxExtraLoad` backups
        /// per request (see ``init(percentile:cancelsLosers:cancellationDelay:)``).
        case percentile(Double)
        /// Envoy's `hedge_on_per_try_timeout`: a copy that has not answered within the timeout
        /// makes the next one go after a draw of `backoff`, Envoy's retry backoff (whole
        /// milliseconds below a window that doubles from its base to its maximum).
        case perTryTimeout(Duration, backoff: BackoffPolicy)
    }

    /// When the next copy goes.
    public let rule: Rule
    /// Copies in all, the first included (as gRPC's `maxAttempts` counts them).
    public let copies: Int
    /// Whether the first success cancels the other copies, so the server stops their work (a
    /// queued copy leaves the queue, one in service frees its worker at once); without, the losers
    /// run to their end.
    public let cancelsLosers: Bool
    /// How long a cancellation takes to reach the server: a loser's work stops this long after the
    /// answer (zero: at once). Slow cancellation is where redundancy stops paying (Shah, Lee and
    /// Ramchandran).
    public let cancellationDelay: Duration

    /// The most copies one request may send.
    public static let maximumCopies = 64

    /// A hedge's parameter out of its range, and why.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// - Throws: ``Invalid`` for a negative delay or cancellation delay, a cancellation delay
    ///   without `cancelsLosers`, or copies outside 1 to ``maximumCopies``.
    public init(
        delay: Duration, copies: Int, cancelsLosers: Bool = true, cancellationDelay: Duration = .zero
    ) throws(Invalid) {
        guard delay >= .zero else { throw Invalid(description: "the hedging delay must not be negative") }
        try Self.validate(cancelsLosers: cancelsLosers, cancellationDelay: cancellationDelay)
        guard (1...Self.maximumCopies).contains(copies) else {
            throw Invalid(description: "a hedge sends 1 to \(Self.maximumCopies) copies, got \(copies)")
        }
        rule = .fixedDelay(delay)
        self.copies = copies
        self.cancelsLosers = cancelsLosers
        self.cancellationDelay = cancellationDelay
    }

    /// Finagle's backup requests (`BackupRequestFilter`, `maxExtraLoad` = 1 − `percentile`): the
    /// original, then one backup if no answer came within the `percentile` of the latencies of
    /// the last 30 s (three 10 s buckets, the delay refreshed every 3 s, at least 1 ms; none in the
    /// first 3 s, and none once the percentile reaches 2 s, the histogram's ceiling). A backup also
    /// needs a token of its own retry budget (Finagle's `RetryBudget`: `maxExtraLoad` per request
    /// over 10 s, plus 10 a second). `cancelsLosers` is Finagle's `sendInterrupts`. Only the
    /// simulation runs this delay (`simulate --hedge on:percentile=Q`): it needs the window of a
    /// whole client's traffic.
    /// - Throws: ``Invalid`` unless 0 < `percentile` ≤ 1 (Finagle's 0 ≤ maxExtraLoad < 1).
    public init(percentile: Double, cancelsLosers: Bool = true, cancellationDelay: Duration = .zero) throws(Invalid) {
        guard percentile.isFinite, percentile > 0, percentile <= 1 else {
            throw Invalid(description: "the percentile must lie in (0, 1] (maxExtraLoad = 1 - percentile in [0, 1))")
        }
        try Self.validate(cancelsLosers: cancelsLosers, cancellationDelay: cancellationDelay)
        rule = .percentile(percentile)
        copies = 2
        self.cancelsLosers = cancelsLosers
        self.cancellationDelay = cancellationDelay
    }

    /// Envoy's `hedge_on_per_try_timeout` (router.cc, `onSoftPerTryTimeout`): a copy that has not
    /// answered within `perTryTimeout` stays in flight, and the next copy goes after a retry backoff
    /// (`JitteredExponentialBackOffStrategy`: a whole number of milliseconds below a window of
    /// `backoffBase`·2^(k−1), capped at `backoffMax`, 10 × the base unless given). A hedge is a
    /// retry: `copies` is Envoy's `num_retries` + 1, and each copy after the first takes the retry
    /// budget's grant. A failure of the newest copy sends the next after a backoff as well; a
    /// failure of a copy already hedged is dropped while another copy is in flight or due. The
    /// first success answers the request and resets the others (`cancelsLosers`).
    /// - Throws: ``Invalid`` for a timeout that is not positive, copies outside 1 to
    ///   ``maximumCopies``, a base below 1 ms, or a maximum below the base or past 2^62 ns (the
    ///   implied maximum, 10 × the base, too).
    public init(
        perTryTimeout: Duration, copies: Int, backoffBase: Duration = .milliseconds(25), backoffMax: Duration? = nil,
        cancelsLosers: Bool = true, cancellationDelay: Duration = .zero
    ) throws(Invalid) {
        guard perTryTimeout > .zero else { throw Invalid(description: "the per-try timeout must be positive") }
        try Self.validate(cancelsLosers: cancelsLosers, cancellationDelay: cancellationDelay)
        guard (1...Self.maximumCopies).contains(copies) else {
            throw Invalid(description: "a hedge sends 1 to \(Self.maximumCopies) copies, got \(copies)")
        }
        guard backoffBase >= .milliseconds(1) else {
            throw Invalid(description: "the backoff base must be at least 1 ms (Envoy draws whole milliseconds)")
        }
        let maximum = backoffMax ?? backoffBase * 10
        guard maximum >= backoffBase else {
            throw Invalid(description: "the backoff maximum must not be below its base")
        }
        // The maximum is a span the run and its columns hold in nanoseconds, whether given or
        // implied by the base (300000h gives 3,000,000 h, past 2^63 ns).
        guard maximum.nanoseconds <= BackoffPolicy.longestTotalWaitNanoseconds else {
            throw Invalid(
                description: backoffMax == nil
                    ? "the backoff maximum, 10 x the base when not given, must not pass 2^62 ns (about 146 years)"
                    : "the backoff maximum must not pass 2^62 ns (about 146 years)")
        }
        do {
            let backoff = try BackoffPolicy(
                base: backoffBase, schedule: .exponential(multiplier: 2), cap: maximum, jitter: .full,
                capMode: .nominal, budget: .maxAttempts(copies), granularity: .milliseconds(1))
            rule = .perTryTimeout(perTryTimeout, backoff: backoff)
        } catch {
            throw Invalid(description: "the backoff: \(error)")
        }
        self.copies = copies
        self.cancelsLosers = cancelsLosers
        self.cancellationDelay = cancellationDelay
    }

    /// A cancellation delay is at least 0, and only where the first success cancels the losers:
    /// without cancellation the losers run to their end, and a delay would say nothing.
    private static func validate(cancelsLosers: Bool, cancellationDelay: Duration) throws(Invalid) {
        guard cancellationDelay >= .zero else {
            throw Invalid(description: "the cancellation delay must not be negative")
        }
        guard cancelsLosers || cancellationDelay == .zero else {
            throw Invalid(
                description: "a cancellation delay needs cancellation (without it the losers run to their end)")
        }
    }

    /// Finagle's `maxExtraLoad`, 1 − the percentile of a ``Rule/percentile(_:)`` rule; `nil` for
    /// the other rules.
    public var maxExtraLoad: Double? {
        if case .percentile(let percentile) = rule { 1 - percentile } else { nil }
    }

    /// One copy, no hedge (in a simulation: a request through the replicas' balancer).
    public static let single = try! Hedging(delay: .zero, copies: 1)
}
