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
        return withUnsafeMutablePointer(to: &random) { random in
            withUnsafeMutablePointer(to: &tally) { tally in
                var draw = DrawTotalWait(retries: retries, random: random, tally: tally)
                return jitter.visit(&draw, self)
            }
        }
    }

    /// The total waits of `count` requests whose every attempt fails at once, handed to `sink` in
    /// order (the request's index, its total wait in nanoseconds): the same draws and the same
    /// rounding as `count` calls of ``drawTotalWait(using:)``, with the jitter mode, the nominal waits
    /// and the (absent) time limit settled once for all requests instead of once per wait. With a
    /// `maxElapsed` limit it calls ``drawTotalWait(using:)`` per request.
    /// - Returns: how many waits were drawn, and how many of them equal the cap (rounded as the waits
    ///   are): the measured share of waits at the cap.
    /// - Complexity: O(count × n) for n attempts.
    @inlinable @discardableResult
    public func drawTotalWaits<Random: UniformSource, Sink: TotalWaitSink>(
        _ count: Int, using random: inout Random, into sink: inout Sink
    ) -> WaitTally {
        let retries = maxAttempts - 1
        let capWait = roundedCap ?? -1
        guard _maxElapsed == .infinity, retries > 0, retries <= 64, !_isImmediate, !_shapesWaits else {
            var tally = WaitTally()
            for run in 0..<count { sink.take(run: run, totalWait: drawTotalWait(using: &random, tally: &tally)) }
            return tally
        }
        // The windows' nominal waits e_1 ... e_(n-1), up to 64 of them, in a stack buffer; the draws
        // run in the mode's family (dispatched once, then specialised).
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: retries) { nominal in
            for k in 1...retries { nominal[k - 1] = windowNominal(beforeRetry: k) }
            let atCap = withUnsafeMutablePointer(to: &random) { random in
                withUnsafeMutablePointer(to: &sink) { sink in
                    var draw = DrawTotalWaits(
                        count: count, retries: retries, nominal: UnsafePointer(nominal.baseAddress!), capWait: capWait,
                        random: random, sink: sink)
                    return jitter.visit(&draw, self)
                }
            }
            return WaitTally(waits: count * retries, atCap: atCap)
        }
    }

    /// ``drawTotalWaits(_:using:into:)`` with a closure, for callers off the hot path.
    @inlinable @discardableResult
    public func drawTotalWaits<Random: UniformSource>(
        _ count: Int, using random: inout Random, _ body: @escaping (Int, Nanoseconds) -> Void
    ) -> WaitTally {
        var sink = TotalWaitClosure(body)
        return drawTotalWaits(count, using: &random, into: &sink)
    }

    /// Every run's total wait from `draw` (the window's nominal wait, a uniform) for each of its
    /// `retries` waits, handed to `sink`; returns how many waits equal `capWait`. All state is in
    /// locals, so the loop keeps it in registers.
    @inlinable @inline(__always)
    static func drawRuns<Random: UniformSource, Sink: TotalWaitSink>(
        _ count: Int, _ retries: Int, _ nominal: UnsafePointer<Double>, _ capWait: Int64, _ random: inout Random,
        _ sink: inout Sink, _ draw: (Double, Double) -> Double
    ) -> Int {
        var capped = 0
        for run in 0..<count {
            var total: Int64 = 0
            for k in 0..<retries {
                let wait = wholeNanoseconds(draw(nominal[k], random.nextUniform()))
                capped &+= wait == capWait ? 1 : 0
                total &+= wait
            }
            sink.take(run: run, totalWait: total)
        }
        return capped
    }

    /// Every run's total wait from a chain of draws, s_k = `step`(s_(k-1), u) from s_0 = `start`,
    /// each wait s_k; returns how many waits equal `capWait`. All state is in locals.
    @inlinable @inline(__always)
    static func drawChains<Random: UniformSource, Sink: TotalWaitSink>(
        _ count: Int, _ retries: Int, start: Double, _ capWait: Int64, _ random: inout Random,
        _ sink: inout Sink, _ step: (Double, Double) -> Double
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
            sink.take(run: run, totalWait: total)
        }
        return capped
    }

    /// Every run's total wait from a family's own draws (the chains and polly-v2 that need the retry's
    /// number or a first wait of their own); returns how many waits equal `capWait`.
    @inlinable @inline(__always)
    static func drawSequences<Family: JitterFamily, Random: UniformSource, Sink: TotalWaitSink>(
        _ family: Family.Type, _ policy: BackoffPolicy, count: Int, retries: Int, capWait: Int64,
        _ random: inout Random, _ sink: inout Sink
    ) -> Int {
        var capped = 0
        for run in 0..<count {
            var total: Int64 = 0
            var previous = policy._initialPrevious
            for k in 1...retries {
                let wait = wholeNanoseconds(Family.draw(policy, retry: k, previous: &previous, using: &random))
                capped &+= wait == capWait ? 1 : 0
                total &+= wait
            }
            sink.take(run: run, totalWait: total)
        }
        return capped
    }

    /// The cap rounded as waits are (whole nanoseconds, half up), so a wait at the cap equals it;
    /// `nil` without a cap.
    @inlinable public var roundedCap: Nanoseconds? { _cap.isFinite ? Self.wholeNanoseconds(_cap) : nil }

    /// A wait rounded half up to whole nanoseconds: the same as `rounded()` for non-negative waits
    /// (but for values within an ulp below a half), without the libm call that `rounded()` costs on
    /// baseline x86-64.
    @inlinable static func wholeNanoseconds(_ wait: Double) -> Int64 { Int64(wait + 0.5) }
}

/// One request's total wait, for ``BackoffPolicy/drawTotalWait(using:tally:)``.
@usableFromInline
struct DrawTotalWait<Random: UniformSource>: JitterFamilyVisitor {
    @usableFromInline let retries: Int
    @usableFromInline let random: UnsafeMutablePointer<Random>
    @usableFromInline let tally: UnsafeMutablePointer<WaitTally>

    @inlinable
    init(retries: Int, random: UnsafeMutablePointer<Random>, tally: UnsafeMutablePointer<WaitTally>) {
        (self.retries, self.random, self.tally) = (retries, random, tally)
    }

    @inlinable
    mutating func visit<Family: JitterFamily>(_ family: Family.Type, _ policy: BackoffPolicy) -> Nanoseconds {
        let capWait = policy.roundedCap ?? -1
        var total: Int64 = 0
        var previous = policy._initialPrevious
        for k in 1...retries {
            let wait = policy.shapedWait(family, retry: k, previous: &previous, using: &random.pointee)
            if Double(total) + Double(wait) > policy._maxElapsed { break }
            total += wait
            tally.pointee.waits += 1
            tally.pointee.atCap += wait == capWait ? 1 : 0
        }
        return total
    }
}

/// The total waits of many requests, for ``BackoffPolicy/drawTotalWaits(_:using:_:)``.
@usableFromInline
struct DrawTotalWaits<Random: UniformSource, Sink: TotalWaitSink>: JitterFamilyVisitor {
    @usableFromInline let count: Int
    @usableFromInline let retries: Int
    @usableFromInline let nominal: UnsafePointer<Double>
    @usableFromInline let capWait: Int64
    @usableFromInline let random: UnsafeMutablePointer<Random>
    @usableFromInline let sink: UnsafeMutablePointer<Sink>

    @inlinable
    init(
        count: Int, retries: Int, nominal: UnsafePointer<Double>, capWait: Int64,
        random: UnsafeMutablePointer<Random>, sink: UnsafeMutablePointer<Sink>
    ) {
        (self.count, self.retries, self.nominal) = (count, retries, nominal)
        (self.capWait, self.random, self.sink) = (capWait, random, sink)
    }

    @inlinable
    mutating func visit<Family: JitterFamily>(_ family: Family.Type, _ policy: BackoffPolicy) -> Int {
        Family.drawTotalWaits(
            policy, count: count, retries: retries, nominal: nominal, capWait: capWait, using: &random.pointee,
            into: &sink.pointee)
    }
}
