import BackoffPolicies
import EventSimulation

/// One client's session as a state machine: it follows a `BackoffPolicy` and a
/// ``ClientBehaviour``, and answers each event with a ``ClientAction`` that the driver (the
/// scenario's event loop) carries out. It holds no reference to the policy, the server or the
/// engine, so it is tested as a timeline on its own, and a million fit in one contiguous array.
public struct SimulatedClient: Hashable, Sendable {
    /// The current request's attempts and waits.
    public private(set) var backoff: BackoffState
    /// When the current request's first attempt started.
    public private(set) var requestStart: VirtualTime = .zero
    // Narrow storage keeps a client at 48 bytes: a million clients are 48 MB.
    private var _requestsLeft: Int32
    private var _attempts: Int32 = 0
    private var _attemptID: Int32 = 0
    /// The current request meets a permanent error.
    public private(set) var isPermanent = false
    /// An attempt is in flight.
    public private(set) var isWaiting = false
    private var startsRequest = true

    /// Requests of the session not yet ended, the current one included.
    public var requestsLeft: Int { Int(_requestsLeft) }
    /// Attempts made over the whole session.
    public var attempts: Int { Int(_attempts) }
    /// Numbers the attempts (modulo 2^32), so a late answer or a stale timeout is recognised.
    public var attemptID: Int64 { Int64(_attemptID) }

    public init(policy: BackoffPolicy, requests: Int = 1) {
        backoff = BackoffState(policy: policy)
        _requestsLeft = Int32(requests)
    }

    /// A new session in this one's place, for a driver that reuses a finished session's storage:
    /// its attempts are numbered on from this session's, so an answer or a timeout still due to one
    /// of this session's attempts is recognised as stale (until 2^32 attempts later).
    public func nextSession(policy: BackoffPolicy, requests: Int) -> SimulatedClient {
        var next = SimulatedClient(policy: policy, requests: requests)
        next._attemptID = _attemptID
        return next
    }

    /// The client starts an attempt at `now` (the first of a new request after a `next` instant,
    /// or a retry). `permanent` is asked once per request, at its first attempt.
    /// - Returns: the attempt's number and whether it is a retry.
    public mutating func beginAttempt(at now: VirtualTime, policy: BackoffPolicy, permanent: () -> Bool) -> (
        id: Int64, isRetry: Bool
    ) {
        if startsRequest {
            startsRequest = false
            backoff = BackoffState(policy: policy)
            requestStart = now
            isPermanent = permanent()
        }
        _attempts &+= 1
        _attemptID &+= 1
        isWaiting = true
        return (attemptID, backoff.attempts > 1)
    }

    /// True when `attempt` is the attempt this client is still waiting for.
    public func isAwaiting(_ attempt: Int64) -> Bool { isWaiting && _attemptID == Int32(truncatingIfNeeded: attempt) }

    /// The answer to the attempt in flight arrived at `now`.
    ///
    /// A failure before the server's recovery, under the recovery trigger, waits for the recovery
    /// instant plus U(0, notification delay) (one uniform drawn); otherwise the policy decides with
    /// the server's delay as `behaviour.retryAfter` says. A driver with shared limits (a retry budget)
    /// puts a granted retry to them next, and ends the request with ``refuseRetry(at:behaviour:)`` when
    /// they refuse it.
    @inline(__always)
    public mutating func answered<Random: UniformSource>(
        _ answer: ClientAnswer, at now: VirtualTime, policy: BackoffPolicy, behaviour: ClientBehaviour,
        using random: inout Random
    ) -> ClientAction {
        isWaiting = false
        switch answer {
        case .success:
            return endRequest(.succeeded, at: now, behaviour: behaviour)
        case .permanentError:
            return endRequest(.permanentFailure, at: now, behaviour: behaviour)
        case .rejectedLocally:
            return endRequest(.rejectedLocally, at: now, behaviour: behaviour)
        case .deadlineExceeded:
            return endRequest(.deadlineExceeded, at: now, behaviour: behaviour)
        case .failure, .timeout:
            var delay: Int64? = nil
            if case .failure(let serverDelay) = answer { delay = serverDelay }
            var handling = behaviour.retryAfter
            if case .recovery(let notification) = behaviour.retryTrigger, let recovery = behaviour.recoveryTime,
                now < recovery
            {
                delay =
                    recovery.nanoseconds - now.nanoseconds
                    + Int64((random.nextUniform() * notification.nanoseconds).rounded(.down))
                handling = .honor
            }
            let elapsed = now.nanoseconds - requestStart.nanoseconds
            switch policy.decide(
                after: &backoff, elapsed: elapsed, serverDelay: delay, handling: handling, using: &random)
            {
            case .retry(let wait):
                return .retry(at: now + wait)
            case .giveUp:
                return endRequest(.gaveUp, at: now, behaviour: behaviour)
            }
        }
    }

    /// The shared limits refused the retry that ``answered(_:at:policy:behaviour:using:)`` granted at
    /// `now`: the request ends, denied by the budget.
    public mutating func refuseRetry(at now: VirtualTime, behaviour: ClientBehaviour) -> ClientAction {
        endRequest(.deniedByBudget, at: now, behaviour: behaviour)
    }

    @inline(__always)
    private mutating func endRequest(_ outcome: RequestOutcome, at now: VirtualTime, behaviour: ClientBehaviour)
        -> ClientAction
    {
        _requestsLeft -= 1
        var unsent = 0
        // A request that gave up (its attempts, its budget or its time ran out) may end its session.
        var gaveUp = false
        switch outcome {
        case .gaveUp, .deniedByBudget, .deadlineExceeded: gaveUp = true
        case .succeeded, .permanentFailure, .rejectedLocally: break
        }
        if gaveUp && behaviour.onGiveUp == .endSession {
            unsent = requestsLeft
            _requestsLeft = 0
        }
        guard requestsLeft > 0 else { return .endRequest(outcome, next: nil, unsent: unsent) }
        startsRequest = true
        return .endRequest(outcome, next: now + behaviour._thinkTime, unsent: 0)
    }
}
