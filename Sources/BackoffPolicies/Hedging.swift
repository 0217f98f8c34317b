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
    public let delay: Duration
    /// Copies in all, the first included (as gRPC's `maxAttempts` counts them).
    public let copies: Int
    /// Whether the first success cancels the other copies, so the server stops their work (a
    /// queued copy leaves the queue, one in service frees its worker at once); without, the losers
    /// run to their end.
    public let cancelsLosers: Bool

    /// The most copies one request may send.
    public static let maximumCopies = 64

    /// A hedge's parameter out of its range, and why.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// - Throws: ``Invalid`` for a negative delay, or copies outside 1 to ``maximumCopies``.
    public init(delay: Duration, copies: Int, cancelsLosers: Bool = true) throws(Invalid) {
        guard delay >= .zero else { throw Invalid(description: "the hedging delay must not be negative") }
        guard (1...Self.maximumCopies).contains(copies) else {
            throw Invalid(description: "a hedge sends 1 to \(Self.maximumCopies) copies, got \(copies)")
        }
        self.delay = delay
        self.copies = copies
        self.cancelsLosers = cancelsLosers
    }

    /// One copy, no hedge (in a simulation: a request through the replicas' balancer).
    public static let single = try! Hedging(delay: .zero, copies: 1)
}
