/// The families that randomise a nominal schedule (none, full, equal, proportional, additive): each
/// draws the wait before retry k from a window linear in the nominal wait e_k (``JitterWindow``),
/// clamped to the cap under `clamp`. What they share is here; each family's file says its window,
/// its draw and its unclamped moments.
@usableFromInline
protocol WindowJitterFamily: IndependentWaitFamily {
    /// The window's ends for the mode's parameter (F, D in nanoseconds, or none).
    static func window(parameter: Double) -> JitterWindow
    /// One draw from the window of `nominal`, before the clamp.
    static func draw(nominal: Double, parameter: Double, _ u: Double) -> Double
    /// E[W], Var[W] and the waits at the cap from the nominal sums, when nothing clamps.
    static func unclampedTotals(_ policy: BackoffPolicy, sums: NominalWaitSums, retries: Int) -> (
        mean: Double, variance: Double, capped: Double
    )
    /// E[w_k] / e_k when nothing clamps.
    static func meanPerNominal(parameter: Double) -> Double
    /// E[w_k] without a clamp, in nanoseconds (for the expected starts).
    static func unclampedMean(_ policy: BackoffPolicy, retry k: Int) -> Double
    /// The total's range without a clamp, in seconds, when it has a shape of its own (else the sum
    /// of the windows' ends).
    static func unclampedRange(largest: Double) -> ClosedRange<Double>?
}

extension WindowJitterFamily {
    @usableFromInline static var defaultCapMode: CapMode { .nominal }
    @usableFromInline static var capModes: [CapMode] { [.nominal, .clamp] }
    @usableFromInline static var buildsItsOwnSchedule: Bool { false }
    @usableFromInline static func initialPrevious(base: Double) -> Double { 0 }
    @usableFromInline static func parameter(of jitter: Jitter) -> Double { 0 }

    @inlinable
    static func draw<Random: UniformSource>(
        _ policy: BackoffPolicy, retry k: Int, previous: inout Double, using random: inout Random
    ) -> Double {
        min(
            policy._clampAt,
            draw(
                nominal: policy.windowNominal(beforeRetry: k), parameter: policy._jitterParameter,
                random.nextUniform()))
    }

    @inlinable
    static func drawTotalWaits<Random: UniformSource, Sink: TotalWaitSink>(
        _ policy: BackoffPolicy, count: Int, retries: Int, nominal: UnsafePointer<Double>, capWait: Int64,
        using random: inout Random, into sink: inout Sink
    ) -> Int {
        let (c, parameter) = (policy._clampAt, policy._jitterParameter)
        return BackoffPolicy.drawRuns(count, retries, nominal, capWait, &random, &sink) { e, u in
            min(c, draw(nominal: e, parameter: parameter, u))
        }
    }

    @usableFromInline static func window(_ policy: BackoffPolicy, retry k: Int, previous: Double) -> ClosedRange<Double>
    {
        let window = window(parameter: policy._jitterParameter)
        let e = policy.windowNominal(beforeRetry: k)
        return min(policy._clampAt, window.low(e))...min(policy._clampAt, window.high(e))
    }

    @usableFromInline static func law(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? {
        let window = window(parameter: policy._jitterParameter)
        let e = policy.windowNominal(beforeRetry: k)
        let (low, high) = (window.low(e), window.high(e))
        guard policy._clampAt.isFinite, high > policy._cap else { return (low, high, 0) }
        if low >= policy._cap { return (policy._cap, policy._cap, 0) }
        return (low, policy._cap, (high - policy._cap) / (high - low))
    }

    @usableFromInline static func roundedLaw(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? {
        law(policy, retry: k).map { ($0.low.rounded(), $0.high.rounded(), $0.atCap) }
    }

    @usableFromInline static func longestTotalWait(_ policy: BackoffPolicy, retries: Int) -> Double {
        // Each wait is at most the top of its window (under `clamp`, the uncapped window's, and c).
        let window = window(parameter: policy._jitterParameter)
        let sums = NominalWaitSums(
            schedule: policy.schedule, base: policy._base, cap: policy._tableCap, retries: retries)
        let tops = window.highScale * sums.sum + window.highOffset * Double(retries)
        return policy._clampAt.isFinite ? min(tops, policy._cap * Double(retries)) : tops
    }

    @usableFromInline static func totals(_ policy: BackoffPolicy, retries: Int, countingCapped: Bool) -> (
        mean: Double, variance: Double, capped: Double
    )? {
        guard policy._clampAt.isFinite else {
            let sums = NominalWaitSums(
                schedule: policy.schedule, base: policy._base, cap: policy._cap, retries: retries)
            return unclampedTotals(policy, sums: sums, retries: retries)
        }
        // Σ over the waits of the clamped window moments, from the uncapped schedule. Once a window's
        // floor reaches c every later wait is c.
        let window = window(parameter: policy._jitterParameter)
        let settled: (Double) -> Bool = { window.low($0) >= policy._cap }
        return summedMoments(policy, retries: retries, isSettled: settled) { e in
            window.moments(nominal: e, cap: policy._cap, clamp: true)
        }
    }

    /// E[w_k] in nanoseconds.
    @usableFromInline static func expectedWait(_ policy: BackoffPolicy, retry k: Int) -> Double {
        guard policy._clampAt.isFinite else { return unclampedMean(policy, retry: k) }
        return window(parameter: policy._jitterParameter)
            .moments(nominal: policy.windowNominal(beforeRetry: k), cap: policy._cap, clamp: true).mean
    }

    /// E[w_k] without a clamp, from the window's moments.
    @usableFromInline static func unclampedMean(_ policy: BackoffPolicy, retry k: Int) -> Double {
        window(parameter: policy._jitterParameter)
            .moments(nominal: policy.windowNominal(beforeRetry: k), cap: policy._cap, clamp: false).mean
    }

    @usableFromInline static func unclampedRange(largest: Double) -> ClosedRange<Double>? { nil }

    @usableFromInline static func totalWaitRange(_ policy: BackoffPolicy, retries: Int, largest: Double) -> ClosedRange<
        Double
    > {
        if !policy._clampAt.isFinite, let range = unclampedRange(largest: largest) { return range }
        let window = window(parameter: policy._jitterParameter)
        let (c, clamps) = (policy._clampAt, policy._clampAt.isFinite)
        var (low, high) = (0.0, 0.0)
        for k in 1...retries {
            let e = policy.windowNominal(beforeRetry: k)
            low += min(c, window.low(e))
            high += min(c, window.high(e))
            if clamps && window.low(e) >= policy._cap {
                low += Double(retries - k) * policy._cap
                high += Double(retries - k) * policy._cap
                break
            }
        }
        return low / 1e9...high / 1e9
    }

    @usableFromInline static func uncappedRetries(_ policy: BackoffPolicy, retries: Int) -> Int {
        guard policy._clampAt.isFinite else {
            return NominalWaitSums.uncappedCount(
                schedule: policy.schedule, base: policy._base, cap: policy._cap, retries: retries)
        }
        let window = window(parameter: policy._jitterParameter)
        var k = 0
        while k < retries && window.high(policy.windowNominal(beforeRetry: k + 1)) <= policy._cap { k += 1 }
        return k
    }

    @usableFromInline static func meanPerNominalWait(_ policy: BackoffPolicy) -> (perNominal: Double, offset: Double)? {
        policy._clampAt.isFinite ? nil : (meanPerNominal(parameter: policy._jitterParameter), meanOffset(policy))
    }

    /// What each wait's mean adds to its share of the nominal wait, in nanoseconds (0 but additive's).
    @usableFromInline static func meanOffset(_ policy: BackoffPolicy) -> Double { 0 }
}
