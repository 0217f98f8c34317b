/// The state of one request under a policy: how many attempts it has made and what it has waited.
///
/// A request starts with its first attempt already made. After each failure, ask the policy for the
/// next wait with ``BackoffPolicy/nextWait(after:elapsed:using:)``; `nil` means the request gives up.
/// The state is a small value (no reference to the policy), so millions of clients can hold one each.
public struct BackoffState: Hashable, Sendable {
    /// Attempts started so far, the first included.
    public var attempts: Int { _attempts }
    /// The sum of the waits taken so far, in nanoseconds.
    public var totalWait: Nanoseconds { _totalWait }

    @usableFromInline var _attempts: Int
    @usableFromInline var _totalWait: Int64
    /// What the next draw builds on, unrounded: s_(k-1) of the decorrelated modes (in nanoseconds;
    /// 0 before decorrelated-monotone's first wait), g(t_(k-1)) of polly-v2 (0 before the first).
    @usableFromInline var _previous: Double

    /// The state right after the first attempt of a request under `policy`.
    public init(policy: BackoffPolicy) {
        _attempts = 1
        _totalWait = 0
        _previous = policy._initialPrevious
    }
}

extension BackoffPolicy {
    /// Draws the wait before the next retry and records it in `state`, or returns `nil` when the
    /// request must give up: its attempts are spent, or the retry would start later than
    /// `maxElapsed` after the first attempt.
    ///
    /// - Parameters:
    ///   - state: the request's state; updated only when a wait is returned.
    ///   - elapsed: nanoseconds from the start of the first attempt to now (the failure).
    ///   - random: consulted once per call for a random jitter mode, never for `disabled`.
    /// - Returns: the wait in whole nanoseconds (the draw rounded to the nearest nanosecond).
    /// - Complexity: O(1).
    @inlinable
    public func nextWait<Random: UniformSource>(
        after state: inout BackoffState, elapsed: Int64, using random: inout Random
    ) -> Int64? {
        guard case .retry(let wait) = decide(after: &state, elapsed: elapsed, using: &random) else { return nil }
        return wait
    }

    /// The decision after a failed attempt, with an optional delay from the server.
    ///
    /// The backoff is drawn first, whatever the server says, so a run's random stream does not
    /// depend on the server's hints. The wait is then the backoff (`ignore`, or no server delay),
    /// the server's delay (`honor`), or the longer of the two (`max`). A wait that would start the
    /// retry later than `maxElapsed` after the first attempt ends the request at once.
    /// - Complexity: O(1).
    @inlinable
    public func decide<Random: UniformSource>(
        after state: inout BackoffState, elapsed: Int64, serverDelay: Int64? = nil,
        handling: RetryAfterHandling = .ignore, using random: inout Random
    ) -> RetryDecision {
        guard state.attempts < maxAttempts else { return .giveUp(.attemptsExhausted) }
        let backoff = drawWait(after: &state, using: &random)
        let wait: Int64
        switch (handling, serverDelay) {
        case (.ignore, _), (_, nil): wait = backoff
        case (.honor, let delay?): wait = delay
        case (.max, let delay?): wait = Swift.max(backoff, delay)
        }
        if Double(elapsed) + Double(wait) > _maxElapsed { return .giveUp(.timeLimit) }
        state._attempts += 1
        // Saturating: honoured server delays are not bounded by the policy.
        let (total, overflow) = state._totalWait.addingReportingOverflow(wait)
        state._totalWait = overflow ? .max : total
        return .retry(after: wait)
    }

    /// One backoff draw for the retry after `state`, rounded to whole nanoseconds: the mode's family
    /// draws it (dispatched once, in ``Jitter``'s registry, then specialised).
    @inlinable
    func drawWait<Random: UniformSource>(after state: inout BackoffState, using random: inout Random) -> Int64 {
        if _isImmediate { return 0 }
        return withUnsafeMutablePointer(to: &random) { random in
            var draw = DrawOneWait(retry: state._attempts, previous: state._previous, random: random)
            let wait = jitter.visit(&draw, self)
            state._previous = draw.previous
            return wait
        }
    }
}

/// One wait of a family, for ``BackoffPolicy/drawWait(after:using:)``.
@usableFromInline
struct DrawOneWait<Random: UniformSource>: JitterFamilyVisitor {
    @usableFromInline let retry: Int
    @usableFromInline var previous: Double
    @usableFromInline let random: UnsafeMutablePointer<Random>

    @inlinable
    init(retry: Int, previous: Double, random: UnsafeMutablePointer<Random>) {
        (self.retry, self.previous, self.random) = (retry, previous, random)
    }

    @inlinable
    mutating func visit<Family: JitterFamily>(_ family: Family.Type, _ policy: BackoffPolicy) -> Int64 {
        if policy._shapesWaits {
            return policy.shapedWait(family, retry: retry, previous: &previous, using: &random.pointee)
        }
        return BackoffPolicy.wholeNanoseconds(
            Family.draw(policy, retry: retry, previous: &previous, using: &random.pointee))
    }
}
