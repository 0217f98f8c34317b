/// The hot loops of `backoff waits`: total waits of requests whose every attempt fails, drawn
/// exactly as repeated ``BackoffPolicy/nextWait(after:elapsed:using:)`` calls would, with the jitter
/// mode settled once per request (or once for all requests) instead of once per wait.
extension BackoffPolicy {
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
}
