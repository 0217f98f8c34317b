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
    /// s_(k-1) of decorrelated jitter, in nanoseconds (unrounded).
    @usableFromInline var _previousDecorrelated: Double

    /// The state right after the first attempt of a request under `policy`.
    public init(policy: BackoffPolicy) {
        _attempts = 1
        _totalWait = 0
        _previousDecorrelated = policy._base
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
        state._totalWait += wait
        return .retry(after: wait)
    }

    /// One backoff draw for the retry after `state`, rounded to whole nanoseconds.
    @inlinable
    func drawWait<Random: UniformSource>(after state: inout BackoffState, using random: inout Random) -> Int64 {
        if _isImmediate { return 0 }
        let nominal = nominalWait(beforeRetry: state.attempts)
        switch jitter {
        case .disabled:
            return Self.wholeNanoseconds(nominal)
        case .full:
            return Self.wholeNanoseconds(Self.fullJitter(nominal, random.nextUniform()))
        case .equal:
            return Self.wholeNanoseconds(Self.equalJitter(nominal, random.nextUniform()))
        case .decorrelated(let r):
            let draw = decorrelatedJitter(after: state._previousDecorrelated, factor: r, random.nextUniform())
            state._previousDecorrelated = draw
            return Self.wholeNanoseconds(draw)
        }
    }

    /// The total wait of one request whose every attempt fails at once, drawn exactly as repeated
    /// ``nextWait(after:elapsed:using:)`` calls would (the same draws, the same rounding), with the
    /// jitter mode chosen once per request instead of once per wait: the hot loop of `backoff waits`.
    /// - Complexity: O(n) for n attempts.
    @inlinable
    public func drawTotalWait<Random: UniformSource>(using random: inout Random) -> Nanoseconds {
        let retries = maxAttempts - 1
        guard retries > 0, !_isImmediate else { return 0 }
        var total: Int64 = 0
        @inline(__always) func add(_ wait: Int64) -> Bool {
            if Double(total) + Double(wait) > _maxElapsed { return false }
            total += wait
            return true
        }
        switch jitter {
        case .disabled:
            for k in 1...retries where !add(Self.wholeNanoseconds(nominalWait(beforeRetry: k))) { break }
        case .full:
            for k in 1...retries {
                let wait = Self.wholeNanoseconds(Self.fullJitter(nominalWait(beforeRetry: k), random.nextUniform()))
                if !add(wait) { break }
            }
        case .equal:
            for k in 1...retries {
                let wait = Self.wholeNanoseconds(Self.equalJitter(nominalWait(beforeRetry: k), random.nextUniform()))
                if !add(wait) { break }
            }
        case .decorrelated(let r):
            var previous = _base
            for _ in 1...retries {
                previous = decorrelatedJitter(after: previous, factor: r, random.nextUniform())
                if !add(Self.wholeNanoseconds(previous)) { break }
            }
        }
        return total
    }

    /// The total waits of `count` requests whose every attempt fails at once, handed to `body` in
    /// order (the request's index, its total wait in nanoseconds): the same draws and the same
    /// rounding as `count` calls of ``drawTotalWait(using:)``, with the jitter mode, the nominal waits
    /// and the (absent) time limit settled once for all requests instead of once per wait. With a
    /// `maxElapsed` limit it calls ``drawTotalWait(using:)`` per request.
    /// - Complexity: O(count × n) for n attempts.
    @inlinable
    public func drawTotalWaits<Random: UniformSource>(_ count: Int, using random: inout Random, _ body: (Int, Int64) -> Void) {
        let retries = maxAttempts - 1
        guard _maxElapsed == .infinity, retries > 0, retries <= 64, !_isImmediate else {
            for run in 0..<count { body(run, drawTotalWait(using: &random)) }
            return
        }
        // e_1 ... e_(n-1), up to 64 of them, in a fixed-size local buffer.
        var nominal: [64 of Double] = .init(repeating: 0)
        for k in 1...retries { nominal[k - 1] = nominalWait(beforeRetry: k) }
        switch jitter {
        case .disabled:
            var total: Int64 = 0
            for k in 0..<retries { total += Self.wholeNanoseconds(nominal[k]) }
            for run in 0..<count { body(run, total) }
        case .full:
            for run in 0..<count {
                var total: Int64 = 0
                for k in 0..<retries { total += Self.wholeNanoseconds(Self.fullJitter(nominal[k], random.nextUniform())) }
                body(run, total)
            }
        case .equal:
            for run in 0..<count {
                var total: Int64 = 0
                for k in 0..<retries { total += Self.wholeNanoseconds(Self.equalJitter(nominal[k], random.nextUniform())) }
                body(run, total)
            }
        case .decorrelated(let r):
            for run in 0..<count {
                var total: Int64 = 0
                var previous = _base
                for _ in 0..<retries {
                    previous = decorrelatedJitter(after: previous, factor: r, random.nextUniform())
                    total += Self.wholeNanoseconds(previous)
                }
                body(run, total)
            }
        }
    }

    /// Full jitter: U(0, e) from a uniform u in [0, 1).
    @inlinable static func fullJitter(_ nominal: Double, _ u: Double) -> Double { nominal * u }

    /// Equal jitter: e/2 + U(0, e/2).
    @inlinable static func equalJitter(_ nominal: Double, _ u: Double) -> Double {
        let half = nominal / 2
        return half + half * u
    }

    /// Decorrelated jitter: min(c, U(b, r s)) after s.
    @inlinable func decorrelatedJitter(after previous: Double, factor r: Double, _ u: Double) -> Double {
        min(_cap, _base + (r * previous - _base) * u)
    }

    /// A wait rounded half up to whole nanoseconds: the same as `rounded()` for non-negative waits
    /// (but for values within an ulp below a half), without the libm call that `rounded()` costs on
    /// baseline x86-64.
    @inlinable static func wholeNanoseconds(_ wait: Double) -> Int64 { Int64(wait + 0.5) }
}

extension BackoffPolicy {
    /// The interval from which the next wait after `state` is drawn, in nanoseconds (before
    /// rounding): [e_k, e_k] without jitter, [0, e_k] full, [e_k/2, e_k] equal, and
    /// [b, min(c, r s_(k-1))] decorrelated, for retry k = `state.attempts`.
    public func waitWindow(after state: BackoffState) -> ClosedRange<Double> {
        if case .immediate = schedule { return 0...0 }
        let nominal = nominalWait(beforeRetry: state.attempts)
        switch jitter {
        case .disabled: return nominal...nominal
        case .full: return 0...nominal
        case .equal: return nominal / 2...nominal
        case .decorrelated(let r): return _base...min(_cap, r * state._previousDecorrelated)
        }
    }
}
