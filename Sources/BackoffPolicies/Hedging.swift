/// Hedged requests ("The Tail at Scale", Dean & Barroso, 2013; gRPC's A6 `hedgingPolicy`): copy k
/// of a request is sent (k − 1)·`delay` after the first unless an answer came, up to `copies` in
/// all, and the first success wins.
///
/// One value for every place a hedge is used: `simulate --hedge` runs it against a capacity
/// server's replicas (RetrySimulation's `HedgedReplicas`, with its closed forms in
/// `Hedging+ClosedForms`), and `Retrier.hedge` runs real work with it (Retrying). Both follow A6:
/// a non-fatal failure sends the next copy at once, a fatal one ends the request and cancels every
/// copy, and the first success answers it.
public struct Hedging: Hashable, Sendable {
    /// The delay between copies; zero, and unused, with a ``percentile`` delay.
    public let delay: Duration
    /// Finagle's `BackupRequestFilter` instead of a fixed delay: one backup, sent after the
    /// `percentile` (1 − `maxExtraLoad`) of the latencies seen lately, within a budget of
    /// `maxExtraLoad` backups per request (see ``init(percentile:cancelsLosers:cancellationDelay:)``); `nil` for a
    /// fixed delay.
    public let percentile: Double?
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

    /// - Throws: ``Invalid`` for a negative delay or cancellation delay, or copies outside 1 to
    ///   ``maximumCopies``.
    public init(
        delay: Duration, copies: Int, cancelsLosers: Bool = true, cancellationDelay: Duration = .zero
    ) throws(Invalid) {
        guard delay >= .zero else { throw Invalid(description: "the hedging delay must not be negative") }
        guard cancellationDelay >= .zero else {
            throw Invalid(description: "the cancellation delay must not be negative")
        }
        guard (1...Self.maximumCopies).contains(copies) else {
            throw Invalid(description: "a hedge sends 1 to \(Self.maximumCopies) copies, got \(copies)")
        }
        self.delay = delay
        self.copies = copies
        self.cancelsLosers = cancelsLosers
        self.cancellationDelay = cancellationDelay
        percentile = nil
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
        guard cancellationDelay >= .zero else {
            throw Invalid(description: "the cancellation delay must not be negative")
        }
        delay = .zero
        copies = 2
        self.cancelsLosers = cancelsLosers
        self.cancellationDelay = cancellationDelay
        self.percentile = percentile
    }

    /// Finagle's `maxExtraLoad`, 1 − ``percentile``; `nil` for a fixed delay.
    public var maxExtraLoad: Double? { percentile.map { 1 - $0 } }

    /// One copy, no hedge (in a simulation: a request through the replicas' balancer).
    public static let single = try! Hedging(delay: .zero, copies: 1)
}
