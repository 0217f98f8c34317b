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

    /// One backoff draw for the retry after `state`, rounded to whole nanoseconds.
    @inlinable
    func drawWait<Random: UniformSource>(after state: inout BackoffState, using random: inout Random) -> Int64 {
        switch _draw {
        case .immediate:
            return 0
        case .disabled:
            return Self.wholeNanoseconds(nominalWait(beforeRetry: state.attempts))
        case .full:
            return Self.wholeNanoseconds(
                Self.fullJitter(windowNominal(beforeRetry: state.attempts), random.nextUniform()))
        case .fullClamped:
            return Self.wholeNanoseconds(
                min(_clampAt, Self.fullJitter(windowNominal(beforeRetry: state.attempts), random.nextUniform())))
        case .equal:
            return Self.wholeNanoseconds(
                Self.equalJitter(windowNominal(beforeRetry: state.attempts), random.nextUniform()))
        case .equalClamped:
            return Self.wholeNanoseconds(
                min(_clampAt, Self.equalJitter(windowNominal(beforeRetry: state.attempts), random.nextUniform())))
        case .decorrelated:
            state._previous = decorrelatedJitter(
                after: state._previous, factor: _decorrelatedFactor, random.nextUniform())
            return Self.wholeNanoseconds(state._previous)
        case .ownSchedule:
            return Self.wholeNanoseconds(
                ownScheduleDraw(after: &state._previous, retry: state.attempts, using: &random))
        case .window:
            let draw = windowDraw(windowNominal(beforeRetry: state.attempts), random.nextUniform())
            return Self.wholeNanoseconds(min(_clampAt, draw))
        }
    }

    /// The total wait of one request whose every attempt fails at once, drawn exactly as repeated
    /// ``nextWait(after:elapsed:using:)`` calls would (the same draws, the same rounding), with the
    /// jitter mode chosen once per request instead of once per wait: the hot loop of `backoff waits`.
    /// - Complexity: O(n) for n attempts.
    @inlinable
    public func drawTotalWait<Random: UniformSource>(using random: inout Random) -> Nanoseconds {
        var tally = WaitTally()
        return drawTotalWait(using: &random, tally: &tally)
    }

    /// ``drawTotalWait(using:)``, counting the waits drawn and those equal to the cap into `tally`.
    @inlinable
    public func drawTotalWait<Random: UniformSource>(using random: inout Random, tally: inout WaitTally) -> Nanoseconds
    {
        let retries = maxAttempts - 1
        guard retries > 0, !_isImmediate else { return 0 }
        let capWait = roundedCap ?? -1
        var total: Int64 = 0
        @inline(__always) func add(_ wait: Int64) -> Bool {
            if Double(total) + Double(wait) > _maxElapsed { return false }
            total += wait
            tally.waits += 1
            tally.atCap += wait == capWait ? 1 : 0
            return true
        }
        switch jitter {
        case .disabled:
            for k in 1...retries where !add(Self.wholeNanoseconds(nominalWait(beforeRetry: k))) { break }
        case .decorrelated, .decorrelatedMonotone, .pollyV2:
            var previous = _initialPrevious
            for k in 1...retries
            where !add(Self.wholeNanoseconds(ownScheduleDraw(after: &previous, retry: k, using: &random))) {
                break
            }
        case .full, .equal, .proportional, .additive:
            for k in 1...retries {
                let draw = windowDraw(windowNominal(beforeRetry: k), random.nextUniform())
                if !add(Self.wholeNanoseconds(min(_clampAt, draw))) { break }
            }
        }
        return total
    }

    /// The total waits of `count` requests whose every attempt fails at once, handed to `body` in
    /// order (the request's index, its total wait in nanoseconds): the same draws and the same
    /// rounding as `count` calls of ``drawTotalWait(using:)``, with the jitter mode, the nominal waits
    /// and the (absent) time limit settled once for all requests instead of once per wait. With a
    /// `maxElapsed` limit it calls ``drawTotalWait(using:)`` per request.
    /// - Returns: how many waits were drawn, and how many of them equal the cap (rounded as the waits
    ///   are): the measured share of waits at the cap.
    /// - Complexity: O(count × n) for n attempts.
    @inlinable @discardableResult
    public func drawTotalWaits<Random: UniformSource>(
        _ count: Int, using random: inout Random, _ body: (Int, Int64) -> Void
    ) -> WaitTally {
        let retries = maxAttempts - 1
        let capWait = roundedCap ?? -1
        guard _maxElapsed == .infinity, retries > 0, retries <= 64, !_isImmediate else {
            var tally = WaitTally()
            for run in 0..<count { body(run, drawTotalWait(using: &random, tally: &tally)) }
            return tally
        }
        // The windows' nominal waits e_1 ... e_(n-1), up to 64 of them, in a stack buffer.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: retries) { nominal in
            for k in 1...retries { nominal[k - 1] = windowNominal(beforeRetry: k) }
            return drawTotalWaits(
                count, retries: retries, nominal: UnsafePointer(nominal.baseAddress!), capWait: capWait, using: &random,
                body)
        }
    }

    /// ``drawTotalWaits(_:using:_:)`` without a time limit, for up to 64 retries, with the nominal
    /// waits settled in `nominal`.
    @inlinable
    func drawTotalWaits<Random: UniformSource>(
        _ count: Int, retries: Int, nominal: UnsafePointer<Double>, capWait: Int64, using random: inout Random,
        _ body: (Int, Int64) -> Void
    ) -> WaitTally {
        let atCap: Int
        switch jitter {
        case .disabled:
            var total: Int64 = 0
            var capped = 0
            for k in 0..<retries {
                let wait = Self.wholeNanoseconds(min(_cap, nominal[k]))
                capped += wait == capWait ? count : 0
                total += wait
            }
            for run in 0..<count { body(run, total) }
            atCap = capped
        case .full where _clampAt.isFinite:
            let c = _clampAt
            atCap = Self.drawRuns(count, retries, nominal, capWait, &random, body) { e, u in
                min(c, Self.fullJitter(e, u))
            }
        case .full:
            atCap = Self.drawRuns(count, retries, nominal, capWait, &random, body, Self.fullJitter)
        case .equal where _clampAt.isFinite:
            let c = _clampAt
            atCap = Self.drawRuns(count, retries, nominal, capWait, &random, body) { e, u in
                min(c, Self.equalJitter(e, u))
            }
        case .equal:
            atCap = Self.drawRuns(count, retries, nominal, capWait, &random, body, Self.equalJitter)
        case .proportional(let f):
            let c = _clampAt
            atCap = Self.drawRuns(count, retries, nominal, capWait, &random, body) { e, u in
                min(c, Self.proportionalJitter(e, fraction: f, u))
            }
        case .additive:
            let (c, spread) = (_clampAt, _jitterSpread)
            atCap = Self.drawRuns(count, retries, nominal, capWait, &random, body) { e, u in min(c, e + spread * u) }
        case .decorrelated(let r):
            let (b, c) = (_base, _cap)
            atCap =
                _clampAt.isFinite
                ? Self.drawChains(count, retries, start: b, capWait, &random, body) { s, u in
                    min(c, b + (r * s - b) * u)
                }
                : Self.drawChains(count, retries, start: b, capWait, &random, body) { s, u in
                    b + (min(c, r * s) - b) * u
                }
        case .decorrelatedMonotone, .pollyV2:
            var capped = 0
            for run in 0..<count {
                var total: Int64 = 0
                var previous = _initialPrevious
                for k in 1...retries {
                    let wait = Self.wholeNanoseconds(ownScheduleDraw(after: &previous, retry: k, using: &random))
                    capped &+= wait == capWait ? 1 : 0
                    total &+= wait
                }
                body(run, total)
            }
            atCap = capped
        }
        return WaitTally(waits: count * retries, atCap: atCap)
    }

    /// Every run's total wait from `draw` (the window's nominal wait, a uniform) for each of its
    /// `retries` waits, handed to `body`; returns how many waits equal `capWait`. All state is in
    /// locals, so the loop keeps it in registers.
    @inlinable @inline(__always)
    static func drawRuns<Random: UniformSource>(
        _ count: Int, _ retries: Int, _ nominal: UnsafePointer<Double>, _ capWait: Int64, _ random: inout Random,
        _ body: (Int, Int64) -> Void, _ draw: (Double, Double) -> Double
    ) -> Int {
        var capped = 0
        for run in 0..<count {
            var total: Int64 = 0
            for k in 0..<retries {
                let wait = wholeNanoseconds(draw(nominal[k], random.nextUniform()))
                capped &+= wait == capWait ? 1 : 0
                total &+= wait
            }
            body(run, total)
        }
        return capped
    }

    /// Every run's total wait from a chain of draws, s_k = `step`(s_(k-1), u) from s_0 = `start`,
    /// each wait s_k; returns how many waits equal `capWait`. All state is in locals.
    @inlinable @inline(__always)
    static func drawChains<Random: UniformSource>(
        _ count: Int, _ retries: Int, start: Double, _ capWait: Int64, _ random: inout Random,
        _ body: (Int, Int64) -> Void, _ step: (Double, Double) -> Double
    ) -> Int {
        var capped = 0
        for run in 0..<count {
            var total: Int64 = 0
            var previous = start
            for _ in 0..<retries {
                previous = step(previous, random.nextUniform())
                let wait = wholeNanoseconds(previous)
                capped &+= wait == capWait ? 1 : 0
                total &+= wait
            }
            body(run, total)
        }
        return capped
    }

    /// Full jitter: U(0, e) from a uniform u in [0, 1).
    @inlinable static func fullJitter(_ nominal: Double, _ u: Double) -> Double { nominal * u }

    /// Equal jitter: e/2 + U(0, e/2).
    @inlinable static func equalJitter(_ nominal: Double, _ u: Double) -> Double {
        let half = nominal / 2
        return half + half * u
    }

    /// Decorrelated jitter after s: min(c, U(b, r s)) under `clamp` (the 2015 post), U(b, min(c, r s))
    /// under `nominal` (Polly Contrib).
    @inlinable func decorrelatedJitter(after previous: Double, factor r: Double, _ u: Double) -> Double {
        _clampAt.isFinite
            ? min(_cap, _base + (r * previous - _base) * u) : _base + (min(_cap, r * previous) - _base) * u
    }

    /// Proportional jitter: U((1 - F) e, (1 + F) e).
    @inlinable static func proportionalJitter(_ nominal: Double, fraction f: Double, _ u: Double) -> Double {
        nominal * (1 - f) + 2 * f * nominal * u
    }

    /// The draw of a mode with a nominal schedule from its window around `nominal` (unclamped).
    @inlinable func windowDraw(_ nominal: Double, _ u: Double) -> Double {
        switch jitter {
        case .full: Self.fullJitter(nominal, u)
        case .equal: Self.equalJitter(nominal, u)
        case .proportional(let f): Self.proportionalJitter(nominal, fraction: f, u)
        case .additive: nominal + _jitterSpread * u
        case .disabled, .decorrelated, .decorrelatedMonotone, .pollyV2: nominal
        }
    }

    /// The next wait of a mode that builds its own schedule, for retry k, from what `previous` holds
    /// (``BackoffState/_previous``), which it updates:
    /// ```
    /// decorrelated           min(c', b + (min(c'', r s) - b) u)
    /// decorrelated-monotone  b first (no draw), then min(c', s + (min(c'', r s) - s) u)
    /// polly-v2               min(c', (g(k - 1 + u) - g_previous) b / 1.4)
    /// ```
    /// where c' is the cap under `clamp` and c'' under `nominal` (the other is infinite).
    @inlinable
    func ownScheduleDraw<Random: UniformSource>(after previous: inout Double, retry k: Int, using random: inout Random)
        -> Double
    {
        switch jitter {
        case .decorrelated(let r):
            previous = decorrelatedJitter(after: previous, factor: r, random.nextUniform())
            return previous
        case .decorrelatedMonotone(let r):
            guard previous > 0 else {
                previous = _base
                return _base
            }
            let next = min(_clampAt, previous + (min(_tableCap, r * previous) - previous) * random.nextUniform())
            previous = next
            return next
        case .pollyV2:
            let next = PollyV2.g(Double(k - 1) + random.nextUniform())
            let wait = (next - previous) * PollyV2.scale(_base)
            previous = next
            return min(_clampAt, wait)
        case .disabled, .full, .equal, .proportional, .additive:
            return windowNominal(beforeRetry: k)
        }
    }

    /// The cap rounded as waits are (whole nanoseconds, half up), so a wait at the cap equals it;
    /// `nil` without a cap.
    @inlinable public var roundedCap: Nanoseconds? { _cap.isFinite ? Self.wholeNanoseconds(_cap) : nil }

    /// A wait rounded half up to whole nanoseconds: the same as `rounded()` for non-negative waits
    /// (but for values within an ulp below a half), without the libm call that `rounded()` costs on
    /// baseline x86-64.
    @inlinable static func wholeNanoseconds(_ wait: Double) -> Int64 { Int64(wait + 0.5) }
}

extension BackoffPolicy {
    /// The interval from which the next wait after `state` is drawn, in nanoseconds (before
    /// rounding), for retry k = `state.attempts`: the mode's window (see ``Jitter``), capped as the
    /// cap mode says; a clamped window's top is the cap, which the draw takes with the probability
    /// that the unclamped draw would have passed it.
    public func waitWindow(after state: BackoffState) -> ClosedRange<Double> {
        if case .immediate = schedule { return 0...0 }
        let k = state.attempts
        let previous = state._previous
        switch jitter {
        case .disabled:
            let nominal = nominalWait(beforeRetry: k)
            return nominal...nominal
        case .full, .equal, .proportional, .additive:
            let window = JitterWindow(jitter)!
            let e = windowNominal(beforeRetry: k)
            return min(_clampAt, window.low(e))...min(_clampAt, window.high(e))
        case .decorrelated(let r):
            return min(_clampAt, _base)...min(_clampAt, min(_tableCap, r * previous))
        case .decorrelatedMonotone(let r):
            guard previous > 0 else { return _base..._base }
            return min(_clampAt, previous)...min(_clampAt, min(_tableCap, r * previous))
        case .pollyV2:
            let scale = PollyV2.scale(_base)
            let low = max(0, PollyV2.g(Double(k - 1)) - previous) * scale
            let high = (PollyV2.g(Double(k)) - previous) * scale
            return min(_clampAt, low)...min(_clampAt, high)
        }
    }
}

extension BackoffPolicy {
    /// The law of the wait before retry k, in nanoseconds, for the modes whose waits are independent
    /// (none, full, equal, proportional, additive): U(low, high) with probability 1 - atCap, and exactly
    /// the cap with probability atCap (under `clamp`, when the window reaches past c). `nil` for the
    /// decorrelated modes and polly-v2, whose waits depend on each other.
    public func waitLaw(beforeRetry k: Int) -> (low: Double, high: Double, atCap: Double)? {
        if case .immediate = schedule { return (0, 0, 0) }
        guard let window = JitterWindow(jitter) else { return nil }
        if jitter == .disabled {
            let e = nominalWait(beforeRetry: k)
            return (e, e, 0)
        }
        let e = windowNominal(beforeRetry: k)
        let (low, high) = (window.low(e), window.high(e))
        guard _clampAt.isFinite, high > _cap else { return (low, high, 0) }
        if low >= _cap { return (_cap, _cap, 0) }
        return (low, _cap, (high - _cap) / (high - low))
    }
}
