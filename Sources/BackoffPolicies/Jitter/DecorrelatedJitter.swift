import Foundation

/// The decorrelated chains, whose waits build on the previous one from the base b (they ignore the
/// policy's schedule), with the factor r:
/// ```
/// decorrelated           s_0 = b, w_k = s_k = U(b, r s_(k-1))       the 2015 post (clamped:
///                        min(c, U(b, r s))); Polly Contrib's AwsDecorrelatedJitterBackoff
///                        (nominal: U(b, min(c, r s)))
/// decorrelated-monotone  w_1 = b, then U(w_(k-1), r w_(k-1))        Finagle's decorrelatedJittered:
///                        never decreasing, the window's top capped (or the draw clamped)
/// ```
/// Their totals have no elementary closed form: `DecorrelatedMoments` integrates the chain's
/// transition operator (exactly without a binding cap).
@usableFromInline
enum DecorrelatedJitter: ChainJitterFamily {
    @usableFromInline static var streamIndex: UInt64 { 3 }
    @usableFromInline static var defaultCapMode: CapMode { .clamp }
    @usableFromInline static var capModes: [CapMode] { [.nominal, .clamp] }
    @usableFromInline static func parameter(of jitter: Jitter) -> Double { jitter.decorrelatedFactor ?? 0 }
    @usableFromInline static func initialPrevious(base: Double) -> Double { base }

    /// min(c, U(b, r s)) under `clamp` (the 2015 post), U(b, min(c, r s)) under `nominal` (Polly Contrib).
    @inlinable
    static func draw<Random: UniformSource>(
        _ policy: BackoffPolicy, retry k: Int, previous: inout Double, using random: inout Random
    ) -> Double {
        let (b, c, r, u) = (policy._base, policy._cap, policy._jitterParameter, random.nextUniform())
        previous = policy._clampAt.isFinite ? min(c, b + (r * previous - b) * u) : b + (min(c, r * previous) - b) * u
        return previous
    }

    @inlinable
    static func drawTotalWaits<Random: UniformSource, Sink: TotalWaitSink>(
        _ policy: BackoffPolicy, count: Int, retries: Int, nominal: UnsafePointer<Double>, capWait: Int64,
        using random: inout Random, into sink: inout Sink
    ) -> Int {
        let (b, c, r) = (policy._base, policy._cap, policy._jitterParameter)
        return policy._clampAt.isFinite
            ? BackoffPolicy.drawChains(count, retries, start: b, capWait, &random, &sink) { s, u in
                min(c, b + (r * s - b) * u)
            }
            : BackoffPolicy.drawChains(count, retries, start: b, capWait, &random, &sink) { s, u in
                b + (min(c, r * s) - b) * u
            }
    }

    @usableFromInline static func window(_ policy: BackoffPolicy, retry k: Int, previous: Double) -> ClosedRange<Double>
    {
        let (c, r) = (policy._clampAt, policy._jitterParameter)
        return min(c, policy._base)...min(c, min(policy._tableCap, r * previous))
    }

    @usableFromInline static func longestTotalWait(_ policy: BackoffPolicy, retries: Int) -> Double {
        // The k-th draw is at most min(c, b r^k): an exponential schedule from b r with ratio r.
        let r = policy._jitterParameter
        return NominalWaitSums(
            schedule: .exponential(multiplier: r), base: policy._base * r, cap: policy._cap, retries: retries
        ).sum
    }

    @usableFromInline static func totals(_ policy: BackoffPolicy, retries: Int, countingCapped: Bool) -> (
        mean: Double, variance: Double, capped: Double
    )? {
        var moments = policy.decorrelatedMoments(retries: retries, countingCapped: countingCapped)
        let last = moments.total(of: retries)
        return (last.moments.mean, last.moments.variance, last.capped)
    }

    @usableFromInline static func expectedStartTimes(_ policy: BackoffPolicy, retries: Int) -> [Double]? {
        var moments = policy.decorrelatedMoments(retries: retries)
        return [0] + (0..<retries).map { _ in moments.next()!.mean / 1e9 }
    }

    @usableFromInline static func totalWaitRange(_ policy: BackoffPolicy, retries: Int, largest: Double) -> ClosedRange<
        Double
    > {
        Double(retries) * policy._base / 1e9...largest
    }

    @usableFromInline static func uncappedRetries(_ policy: BackoffPolicy, retries: Int) -> Int {
        // k with b r^k <= c cannot reach the cap; count them as an exponential schedule from b r.
        let r = policy._jitterParameter
        var k = 0
        while k < retries && policy._base * pow(r, Double(k + 1)) <= policy._cap { k += 1 }
        return k
    }

    @usableFromInline static func expectedTotals(_ policy: BackoffPolicy) -> AnyIterator<Double> {
        var moments = policy.decorrelatedMoments(retries: nil)
        return AnyIterator { moments.next()!.mean / 1e9 }
    }
}

/// Finagle's monotone chain (`decorrelated-monotone`): the first wait is b (no draw), then each is
/// drawn above the previous one, U(s, min(c, r s)). Its totals are b plus the decorrelated
/// recursion of the other waits, from b.
@usableFromInline
enum MonotoneDecorrelatedJitter: ChainJitterFamily {
    @usableFromInline static var streamIndex: UInt64 { 7 }
    @usableFromInline static var defaultCapMode: CapMode { .nominal }
    @usableFromInline static var capModes: [CapMode] { [.nominal, .clamp] }
    @usableFromInline static func parameter(of jitter: Jitter) -> Double { jitter.decorrelatedFactor ?? 0 }
    @usableFromInline static func initialPrevious(base: Double) -> Double { 0 }

    @inlinable
    static func draw<Random: UniformSource>(
        _ policy: BackoffPolicy, retry k: Int, previous: inout Double, using random: inout Random
    ) -> Double {
        guard previous > 0 else {
            previous = policy._base
            return policy._base
        }
        let r = policy._jitterParameter
        let next = min(
            policy._clampAt, previous + (min(policy._tableCap, r * previous) - previous) * random.nextUniform())
        previous = next
        return next
    }

    @usableFromInline static func window(_ policy: BackoffPolicy, retry k: Int, previous: Double) -> ClosedRange<Double>
    {
        guard previous > 0 else { return policy._base...policy._base }
        let (c, r) = (policy._clampAt, policy._jitterParameter)
        return min(c, previous)...min(c, min(policy._tableCap, r * previous))
    }

    @usableFromInline static func longestTotalWait(_ policy: BackoffPolicy, retries: Int) -> Double {
        // b, then at most min(c, b r^k) for the k-th draw.
        let r = policy._jitterParameter
        return policy._base
            + NominalWaitSums(
                schedule: .exponential(multiplier: r), base: policy._base * r, cap: policy._cap, retries: retries - 1
            ).sum
    }

    @usableFromInline static func totals(_ policy: BackoffPolicy, retries: Int, countingCapped: Bool) -> (
        mean: Double, variance: Double, capped: Double
    )? {
        // The first wait is b; the other n - 2 follow the chain from b.
        let first = policy._base == policy._cap ? 1.0 : 0
        guard retries > 1 else { return (policy._base, 0, first) }
        var moments = policy.decorrelatedMoments(retries: retries - 1, countingCapped: countingCapped)
        let last = moments.total(of: retries - 1)
        return (policy._base + last.moments.mean, last.moments.variance, first + last.capped)
    }

    @usableFromInline static func expectedStartTimes(_ policy: BackoffPolicy, retries: Int) -> [Double]? {
        guard retries > 0 else { return [0] }
        var moments = policy.decorrelatedMoments(retries: retries - 1)
        let b = policy._base
        return [0, b / 1e9] + (0..<(retries - 1)).map { _ in (b + moments.next()!.mean) / 1e9 }
    }

    @usableFromInline static func totalWaitRange(_ policy: BackoffPolicy, retries: Int, largest: Double) -> ClosedRange<
        Double
    > {
        Double(retries) * policy._base / 1e9...largest
    }

    @usableFromInline static func uncappedRetries(_ policy: BackoffPolicy, retries: Int) -> Int {
        // The first wait is b; then as the decorrelated chain.
        min(retries, DecorrelatedJitter.uncappedRetries(policy, retries: retries) + 1)
    }

    @usableFromInline static func expectedTotals(_ policy: BackoffPolicy) -> AnyIterator<Double> {
        var moments = policy.decorrelatedMoments(retries: nil)
        var first = true
        let base = policy._base
        return AnyIterator {
            defer { first = false }
            return (first ? base : base + moments.next()!.mean) / 1e9
        }
    }
}

extension BackoffPolicy {
    /// The decorrelated chain of this policy's mode and cap mode.
    var decorrelatedChain: DecorrelatedChain {
        DecorrelatedChain(
            floorsAtBase: { if case .decorrelatedMonotone = jitter { false } else { true } }(),
            clamps: capMode == .clamp)
    }

    /// The moments of the chain's partial sums for `retries` waits (`nil`: without end), in
    /// nanoseconds, as every closed form takes them.
    func decorrelatedMoments(retries: Int?, countingCapped: Bool = false) -> DecorrelatedMoments {
        DecorrelatedMoments(
            base: _base, cap: _cap, factor: _jitterParameter, chain: decorrelatedChain, retries: retries,
            countingCapped: countingCapped)
    }
}
