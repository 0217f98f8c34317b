/// One hedged request's decisions, as a state machine: it takes what happens to the request (a
/// copy went, a copy ended, its timer fired, the limits answered) and returns what to do next
/// (``Action``). It owns no clock, no task and no server: a driver performs the actions.
///
/// Two drivers run it, so what an app ships and what is simulated are one logic: `Retrier.hedge`
/// (Retrying) in real time with child tasks, and the simulation's hedged replicas (RetrySimulation)
/// in virtual time. A test runs both on the same copies and compares their ``HedgeEvent`` traces.
///
/// The rules, by ``Hedging/Rule``:
/// - **gRPC A6** (`fixedDelay`): the timer sends the next copy; a non-fatal failure sends it at
///   once; the first success answers, and a fatal failure ends the request; either cancels the
///   others (a success only with `cancelsLosers`). Once every copy has failed, the last answers.
/// - **Finagle** (`percentile`): the timer sends the backup; a failure sends nothing, and the
///   first copy to end answers unless it failed with another copy out (that copy then answers).
/// - **Envoy** (`perTryTimeout`): the timer is the newest copy's timeout; when it fires, or the
///   newest copy fails, the next copy goes after a retry backoff (``Action/backOff``). A failure
///   of a copy hedged already is dropped while another copy is in flight or due.
///
/// Every copy after the first goes only if the shared limits grant it (``Action/askLimits``); a
/// refused copy is not sent, and the request goes on with the copies in flight.
public struct HedgedCallMachine: Hashable, Sendable {
    /// How a copy ended, as its request hears it.
    public enum CopyOutcome: Hashable, Sendable {
        case success
        /// A non-fatal failure (a rejection, a retryable status).
        case failure
        /// A fatal failure (gRPC's non-retryable status): it ends the request.
        case fatalFailure
    }

    /// What the driver does next.
    public enum Action: Hashable, Sendable {
        case none
        /// A copy after the first is due: ask the shared limits, and report with
        /// ``limitsAnswered(granted:)``.
        case askLimits
        /// Send the next copy now and report it with ``copySent()``; a driver that defers the
        /// send checks ``wantsCopy`` when it gets to it.
        case send
        /// Draw the rule's retry backoff and arm the timer for it (``Timer/backoff``); a wait of
        /// zero fires it at once.
        case backOff
        /// The request is answered with this copy's outcome; with `cancellingOthers`, the copies
        /// still in flight are cancelled.
        case answer(cancellingOthers: Bool)
    }

    /// What the request's timer counts down.
    public enum Timer: Hashable, Sendable {
        case idle
        /// The delay before the next copy (gRPC's, or Finagle's percentile).
        case nextCopy
        /// The newest copy's per-try timeout (Envoy's).
        case perTryTimeout
        /// The retry backoff before the next copy (Envoy's).
        case backoff
    }

    private enum Style: UInt8, Hashable, Sendable { case grpc, finagle, envoy }

    /// The question put to the limits, so their answer is taken the right way.
    private enum Question: UInt8, Hashable, Sendable {
        case none, sendOnTimer, backOffOnTimeout, sendAfterFailure, backOffAfterFailure
    }

    private let style: Style
    private let cancelsLosers: Bool
    private var question = Question.none
    /// What the timer counts down; a driver arms it after ``copySent()`` or ``Action/backOff``.
    public private(set) var timer = Timer.idle
    /// Whether the request has its answer (or its client stopped waiting and no copy is left).
    public private(set) var isAnswered = false
    private let copyLimit: Int32
    private var sentCount: Int32 = 0, inFlightCount: Int32 = 0

    public init(_ hedging: Hedging) {
        switch hedging.rule {
        case .fixedDelay: style = .grpc
        case .percentile: style = .finagle
        case .perTryTimeout: style = .envoy
        }
        cancelsLosers = hedging.cancelsLosers
        copyLimit = Int32(hedging.copies)
    }

    /// Copies sent so far, and those still in flight (neither ended nor withdrawn).
    public var sent: Int { Int(sentCount) }
    public var inFlight: Int { Int(inFlightCount) }

    /// Whether the request still sends copies: unanswered, with copies left.
    public var wantsCopy: Bool { !isAnswered && sentCount < copyLimit }

    /// Whether the request is over: answered, with no copy left in flight.
    public var isFinished: Bool { isAnswered && inFlightCount == 0 }

    /// A copy went (the first, or one the machine asked for). Returns whether another may follow:
    /// the driver then arms the timer by the rule (``timer``), or fires it at once for a delay of
    /// zero.
    public mutating func copySent() -> Bool {
        precondition(wantsCopy, "a request sends its copies while it waits for an answer, up to its limit")
        sentCount += 1
        inFlightCount += 1
        guard sentCount < copyLimit else {
            timer = .idle
            return false
        }
        timer = style == .envoy ? .perTryTimeout : .nextCopy
        return true
    }

    /// The timer fired (the driver has dropped a stale one); `clientAwaits`: the request's caller
    /// still waits for it.
    public mutating func timerFired(clientAwaits: Bool) -> Action {
        let purpose = timer
        timer = .idle
        guard !isAnswered else { return .none }
        switch purpose {
        case .idle:
            return .none
        case .nextCopy:
            guard clientAwaits else { return abandon() }
            guard sentCount < copyLimit else { return .none }
            question = .sendOnTimer
            return .askLimits
        case .backoff:
            guard clientAwaits else { return abandon() }
            return sentCount < copyLimit ? .send : .none
        case .perTryTimeout:
            // The newest copy stays in flight; the next one may follow it after a backoff.
            guard sentCount < copyLimit, clientAwaits else { return .none }
            question = .backOffOnTimeout
            return .askLimits
        }
    }

    /// The limits answered the question of ``Action/askLimits``. A refusal is final for that copy:
    /// the request goes on with its copies in flight, and answers with the last failure when none
    /// is left.
    public mutating func limitsAnswered(granted: Bool) -> Action {
        let asked = question
        question = .none
        switch asked {
        case .none:
            preconditionFailure("the limits answer a question the machine asked")
        case .sendOnTimer:
            return granted ? .send : .none
        case .backOffOnTimeout:
            guard granted else { return .none }
            timer = .backoff
            return .backOff
        case .sendAfterFailure:
            return granted ? .send : answerIfNoneLeft()
        case .backOffAfterFailure:
            guard granted else { return answerIfNoneLeft() }
            timer = .backoff
            return .backOff
        }
    }

    /// Copy number `copy` (from 1) ended, with `outcome` when its answer reaches the request, `nil`
    /// for work nobody waits for (a loser run to its end, a copy whose caller stopped waiting).
    public mutating func copyEnded(_ copy: Int, _ outcome: CopyOutcome?, clientAwaits: Bool) -> Action {
        precondition(inFlightCount > 0, "a copy ends once, after it was sent")
        inFlightCount -= 1
        guard let outcome, !isAnswered else {
            if inFlightCount == 0 { isAnswered = true }
            return .none
        }
        switch (style, outcome) {
        case (.finagle, .failure), (.finagle, .fatalFailure):
            // The first copy to end answers, unless it failed with the backup out.
            return answerIfNoneLeft()
        case (_, .success), (_, .fatalFailure):
            isAnswered = true
            return .answer(cancellingOthers: outcome == .fatalFailure || cancelsLosers)
        case (.envoy, .failure):
            // The newest copy, not hedged yet: its timeout no longer runs, and a backoff follows.
            if copy == sent && timer != .backoff {
                timer = .idle
                if sentCount < copyLimit && clientAwaits {
                    question = .backOffAfterFailure
                    return .askLimits
                }
            }
            return answerIfNoneLeft()
        case (_, .failure):
            if sentCount < copyLimit && clientAwaits {
                question = .sendAfterFailure
                return .askLimits
            }
            return answerIfNoneLeft()
        }
    }

    /// A copy was withdrawn (its cancellation reached it) before it ended.
    public mutating func copyWithdrawn() {
        precondition(inFlightCount > 0, "a copy is withdrawn once, after it was sent")
        inFlightCount -= 1
    }

    /// The caller stopped waiting before an answer: the request sends nothing more, and is over
    /// once its copies end.
    public mutating func abandon() -> Action {
        if inFlightCount == 0 { isAnswered = true }
        return .none
    }

    /// A failure answers the request once no copy is in flight or due after a backoff.
    private mutating func answerIfNoneLeft() -> Action {
        guard inFlightCount == 0 && timer != .backoff else { return .none }
        isAnswered = true
        return .answer(cancellingOthers: false)
    }
}
