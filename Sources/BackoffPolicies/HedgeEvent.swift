/// What one hedged request did, in order: the trace that both drivers of ``HedgedCallMachine``
/// report (`Retrier.hedge`'s `onEvent`, and the simulation's hedge), so that the two can be
/// compared event for event. Copies are numbered from 1, in the order they went.
public enum HedgeEvent: Hashable, Sendable {
    /// Copy `copy` was sent.
    case copySent(copy: Int)
    /// The request's timer was armed to fire after `delay` (for the next copy, a per-try timeout
    /// or a retry backoff: ``HedgedCallMachine/Timer``).
    case timerArmed(delay: Duration)
    /// The limits refused the copy that would have been number `copy`.
    case copyRefused(copy: Int)
    /// Copy `copy`'s answer reached the request.
    case copyEnded(copy: Int, outcome: HedgedCallMachine.CopyOutcome)
    /// The request was answered with copy `copy`'s outcome, after `sent` copies.
    case answered(copy: Int, outcome: HedgedCallMachine.CopyOutcome, sent: Int)
}
