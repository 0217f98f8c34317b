import Foundation

/// Closed-form companions of a policy, for a request whose every attempt fails at once (attempts
/// take no time, so an attempt starts when the wait before it ends). All results are in seconds.
extension BackoffPolicy {
    /// The mean and variance of the total wait W = w_1 + ... + w_(n-1), or `nil` where no closed form
    /// applies: a random jitter mode together with `maxElapsed` (which truncates the sum at random),
    /// or polly-v2 with a cap that can clamp a wait (the clamp breaks the telescoping sum).
    ///
    /// With the nominal waits e_k = min(c, schedule_k) (sums in closed form: see `NominalWaitSums`):
    /// ```
    /// none             E[W] = Σ e_k                 Var[W] = 0
    /// full             E[W] = Σ e_k / 2             Var[W] = Σ e_k² / 12
    /// equal            E[W] = 3 Σ e_k / 4           Var[W] = Σ e_k² / 48
    /// proportional(F)  E[W] = Σ e_k                 Var[W] = F² Σ e_k² / 3
    /// additive(D)      E[W] = Σ e_k + (n-1) D/2     Var[W] = (n-1) D² / 12
    /// decorrelated     the recursion of `DecorrelatedMoments` (exact without a binding cap,
    ///                  deterministic numerical integration with one); the monotone mode's first
    ///                  wait is b, then the same recursion from b
    /// polly-v2         W = (b/1.4) g(n-2+U): E[W] and Var[W] are one-dimensional integrals
    /// ```
    /// Under cap mode `clamp` each wait is min(c, U(low, high)) of its uncapped window, with the
    /// moments of `JitterWindow/moments(nominal:cap:clamp:)`, summed over the waits.
    /// For an uncapped exponential schedule Σ e_k is the geometric series b (m^(n-1) - 1) / (m - 1).
    /// The immediate schedule waits zero, whatever the jitter.
    public var totalWaitMoments: TotalWaitMoments? {
        closedFormTotals(countingCapped: false).map {
            TotalWaitMoments(mean: $0.mean / 1e9, variance: $0.variance / 1e18)
        }
    }

    /// E[W] in seconds; see ``totalWaitMoments``.
    public var expectedTotalWait: Double? { totalWaitMoments?.mean }

    /// The expected share of a request's n - 1 waits that equal the cap exactly, or `nil` where
    /// ``totalWaitMoments`` has no closed form or the request makes no retry. Without a cap it is 0,
    /// and so it is for every continuous window under `nominal` (only a wait without jitter can sit
    /// at the cap there). Under `clamp` a wait from U(low, high) equals c with probability
    /// (high - c) / (high - low) when low < c < high.
    public var expectedAtCapFraction: Double? { closedForm?.atCapFraction }

    /// ``totalWaitMoments`` and ``expectedAtCapFraction`` together, computed once (for the
    /// decorrelated modes with a binding cap they are one numerical integration).
    public var closedForm: PolicyClosedForm? {
        guard let totals = closedFormTotals(countingCapped: true) else { return nil }
        let retries = maxAttempts - 1
        // Computed in nanoseconds and converted once, so 3/4 of 1.6 s reads 1.2 s.
        return PolicyClosedForm(
            moments: TotalWaitMoments(mean: totals.mean / 1e9, variance: totals.variance / 1e18),
            atCapFraction: retries > 0 ? totals.capped / Double(retries) : nil)
    }

    /// The sums behind the closed forms, in nanoseconds: E[W], Var[W] and the expected number of
    /// waits at the cap (left at 0 for the decorrelated chains unless `countingCapped`, which costs
    /// them a third more integration).
    private func closedFormTotals(countingCapped: Bool) -> (mean: Double, variance: Double, capped: Double)? {
        let retries = maxAttempts - 1
        if case .immediate = schedule { return (0, 0, 0) }
        if maxElapsed != nil {
            guard jitter == .disabled else { return nil }
            let total = nominalStartTimes.last ?? 0
            let capped =
                nominalStartTimes.count > 1
                ? (1..<nominalStartTimes.count).count { nominalWait(beforeRetry: $0) == _cap } : 0
            return (total * 1e9, 0, Double(capped))
        }
        if retries == 0 { return (0, 0, 0) }
        switch jitter {
        case .decorrelated(let r):
            var moments = DecorrelatedMoments(
                base: _base, cap: _cap, factor: r, chain: decorrelatedChain, retries: retries,
                countingCapped: countingCapped)
            let last = moments.total(of: retries)
            return (last.moments.mean, last.moments.variance, last.capped)
        case .decorrelatedMonotone(let r):
            // The first wait is b; the other n - 2 follow the chain from b.
            let first = _base == _cap ? 1.0 : 0
            guard retries > 1 else { return (_base, 0, first) }
            var moments = DecorrelatedMoments(
                base: _base, cap: _cap, factor: r, chain: decorrelatedChain, retries: retries - 1,
                countingCapped: countingCapped)
            let last = moments.total(of: retries - 1)
            return (_base + last.moments.mean, last.moments.variance, first + last.capped)
        case .pollyV2:
            guard !pollyClampCanBind(retries: retries) else { return nil }
            let scale = PollyV2.scale(_base)
            let (mean, square) = PollyV2.moments(at: retries - 1)
            return (scale * mean, scale * scale * (square - mean * mean), 0)
        case .disabled, .full, .equal, .proportional, .additive:
            if _clampAt.isFinite { return clampedWindowTotals(retries: retries) }
            let sums = NominalWaitSums(schedule: schedule, base: _base, cap: _cap, retries: retries)
            let count = Double(retries)
            switch jitter {
            case .full: return (sums.sum / 2, sums.sumOfSquares / 12, 0)
            case .equal: return (3 * sums.sum / 4, sums.sumOfSquares / 48, 0)
            case .proportional(let f): return (sums.sum, f * f * sums.sumOfSquares / 3, 0)
            case .additive: return (sums.sum + count * _jitterSpread / 2, count * _jitterSpread * _jitterSpread / 12, 0)
            default: return (sums.sum, 0, Double(retries - sums.uncappedCount))
            }
        }
    }

    /// Σ over the waits of the clamped window moments, from the uncapped schedule. Once a window's
    /// floor reaches c every later wait is c; once the schedule stops growing every later window is
    /// the same.
    private func clampedWindowTotals(retries: Int) -> (mean: Double, variance: Double, capped: Double) {
        let window = JitterWindow(jitter)!
        var totals = (mean: 0.0, variance: 0.0, capped: 0.0)
        var previous = -1.0
        var k = 1
        while k <= retries {
            let e = windowNominal(beforeRetry: k)
            let wait = window.moments(nominal: e, cap: _cap, clamp: true)
            let repeats = (e == previous || window.low(e) >= _cap) ? Double(retries - k + 1) : 1
            totals.mean += repeats * wait.mean
            totals.variance += repeats * wait.variance
            totals.capped += repeats * wait.atCap
            if repeats > 1 { break }
            previous = e
            k += 1
        }
        return totals
    }

    /// The decorrelated chain of this policy's mode and cap mode.
    var decorrelatedChain: DecorrelatedChain {
        DecorrelatedChain(
            floorsAtBase: { if case .decorrelatedMonotone = jitter { false } else { true } }(),
            clamps: capMode == .clamp)
    }

    /// True when polly-v2's clamp to c can change one of the first `retries` waits.
    func pollyClampCanBind(retries: Int) -> Bool {
        _cap.isFinite && PollyV2.scale(_base) * PollyV2.largestStep(retries: retries) > _cap
    }

    /// The start times t_1 ... t_m of the un-jittered schedule, in seconds: t_1 = 0 and
    /// t_k = t_(k-1) + e_(k-1), each wait rounded to the nanosecond as the simulation does. With
    /// `maxElapsed` the list stops at the last retry that starts within the limit (m <= n).
    /// For the exponential schedule, t_k = b (m^(k-1) - 1) / (m - 1) until the cap binds.
    public var nominalStartTimes: [Double] {
        var starts: [Double] = [0]
        var elapsed = 0.0
        var k = 1
        while k < maxAttempts {
            let wait = schedule == .immediate ? 0 : nominalWait(beforeRetry: k).rounded()
            if elapsed + wait > _maxElapsed { break }
            elapsed += wait
            starts.append(elapsed / 1e9)
            k += 1
        }
        return starts
    }

    /// E[t_1] ... E[t_n], the expected start time of each attempt of a request whose attempts all
    /// fail, in seconds; `nil` where ``totalWaitMoments`` has no closed form. E[t_k] = E[w_1 + ... + w_(k-1)].
    public var expectedStartTimes: [Double]? {
        let retries = maxAttempts - 1
        if case .immediate = schedule { return [Double](repeating: 0, count: maxAttempts) }
        if maxElapsed != nil { return jitter == .disabled ? nominalStartTimes : nil }
        switch jitter {
        case .decorrelated(let r):
            var moments = DecorrelatedMoments(
                base: _base, cap: _cap, factor: r, chain: decorrelatedChain, retries: retries)
            return [0] + (0..<retries).map { _ in moments.next()!.mean / 1e9 }
        case .decorrelatedMonotone(let r):
            guard retries > 0 else { return [0] }
            var moments = DecorrelatedMoments(
                base: _base, cap: _cap, factor: r, chain: decorrelatedChain, retries: retries - 1)
            return [0, _base / 1e9] + (0..<(retries - 1)).map { _ in (_base + moments.next()!.mean) / 1e9 }
        case .pollyV2:
            guard !pollyClampCanBind(retries: retries) else { return nil }
            let scale = PollyV2.scale(_base)
            return [0] + (0..<retries).map { k in scale * PollyV2.moments(at: k).mean / 1e9 }
        case .disabled, .full, .equal, .proportional, .additive:
            // Accumulate in nanoseconds and convert each sum once, so 0.1 s + 0.2 s reads 0.3 s.
            var starts: [Double] = [0]
            var total = 0.0
            for k in stride(from: 1, to: maxAttempts, by: 1) {
                total += expectedWindowWait(beforeRetry: k)
                starts.append(total / 1e9)
            }
            return starts
        }
    }

    /// E[w_k] for a mode with a nominal schedule, in nanoseconds.
    private func expectedWindowWait(beforeRetry k: Int) -> Double {
        switch (jitter, _clampAt.isFinite) {
        case (.disabled, _): nominalWait(beforeRetry: k)
        case (.full, false): 0.5 * nominalWait(beforeRetry: k)
        case (.equal, false): 0.75 * nominalWait(beforeRetry: k)
        default:
            JitterWindow(jitter)!.moments(nominal: windowNominal(beforeRetry: k), cap: _cap, clamp: _clampAt.isFinite)
                .mean
        }
    }

    /// The smallest and largest total wait any draw can produce, in seconds:
    /// ```
    /// none [Σe, Σe]   full [0, Σe]   equal [Σe/2, Σe]   proportional [(1-F) Σe, (1+F) Σe]
    /// additive [Σe, Σe + (n-1) D]    clamp: [Σ min(c, low_k), Σ min(c, high_k)]
    /// decorrelated [(n-1) b, Σ min(c, b r^k)]   monotone [(n-1) b, b + Σ_(k<n-1) min(c, b r^k)]
    /// polly-v2 [(b/1.4) g(n-2), (b/1.4) g(n-1)]
    /// ```
    /// With `maxElapsed` and random jitter the range is [0, min(largest, maxElapsed)]. For polly-v2
    /// with a cap that can clamp, the range is [0, min((n-1) c, (b/1.4) g(n-1))]: bounds, the lower one
    /// not attained.
    public var totalWaitRange: ClosedRange<Double> {
        if case .immediate = schedule { return 0...0 }
        let retries = maxAttempts - 1
        let largest = Self.longestPossibleTotalWait(self) / 1e9
        if maxElapsed != nil {
            if jitter == .disabled {
                let total = nominalStartTimes.last ?? 0
                return total...total
            }
            return 0...min(largest, _maxElapsed / 1e9)
        }
        guard retries > 0 else { return 0...0 }
        switch jitter {
        case .disabled: return largest...largest
        case .decorrelated, .decorrelatedMonotone: return Double(retries) * _base / 1e9...largest
        case .pollyV2:
            if pollyClampCanBind(retries: retries) { return 0...largest }
            return PollyV2.scale(_base) * PollyV2.g(Double(retries - 1)) / 1e9...largest
        case .full where !_clampAt.isFinite: return 0...largest
        case .equal where !_clampAt.isFinite: return largest / 2...largest
        case .full, .equal, .proportional, .additive:
            let window = JitterWindow(jitter)!
            var (low, high) = (0.0, 0.0)
            for k in 1...retries {
                let e = windowNominal(beforeRetry: k)
                low += min(_clampAt, window.low(e))
                high += min(_clampAt, window.high(e))
                if _clampAt.isFinite && window.low(e) >= _cap {
                    low += Double(retries - k) * _cap
                    high += Double(retries - k) * _cap
                    break
                }
            }
            return low / 1e9...high / 1e9
        }
    }

    /// The first retry k whose wait the cap can limit: e_k = c (none, and the other nominal-schedule
    /// modes under `nominal`), a window reaching past c (under `clamp`), b r^(k-1) > c for the k-th
    /// draw of the decorrelated modes, or a polly-v2 step that can pass c. `nil` when the cap never
    /// binds within the budget.
    public var firstCappedRetry: Int? {
        let retries = maxAttempts - 1
        guard _cap.isFinite, retries > 0 else { return nil }
        if case .immediate = schedule { return nil }
        let uncapped: Int
        switch jitter {
        case .decorrelated(let r), .decorrelatedMonotone(let r):
            // k with b r^k <= c cannot reach the cap; count them as an exponential schedule from b r.
            var k = 0
            while k < retries && _base * pow(r, Double(k + 1)) <= _cap { k += 1 }
            if case .decorrelatedMonotone = jitter { k = min(retries, k + 1) }  // the first wait is b
            uncapped = k
        case .pollyV2:
            var k = 0
            while k < retries && !pollyClampCanBind(retries: k + 1) { k += 1 }
            uncapped = k
        case .full, .equal, .proportional, .additive, .disabled:
            if _clampAt.isFinite {
                let window = JitterWindow(jitter)!
                var k = 0
                while k < retries && window.high(windowNominal(beforeRetry: k + 1)) <= _cap { k += 1 }
                uncapped = k
            } else {
                uncapped = NominalWaitSums.uncappedCount(schedule: schedule, base: _base, cap: _cap, retries: retries)
            }
        }
        return uncapped < retries ? uncapped + 1 : nil
    }

    /// The largest number of attempts n whose expected total wait E[W(n)] stays at or under `limit`,
    /// with every other parameter of this policy (its own attempt budget and `maxElapsed` are
    /// ignored): `.any` when every n qualifies because the waits are all zero, `.unknown` where E[W(n)]
    /// has no closed form (polly-v2 once its cap can clamp).
    ///
    /// E[W(n)] never decreases in n. For the nominal-schedule modes under `nominal` it is
    /// α Σ e_k + β (n-1), found by doubling and bisection on the closed forms; the other modes step
    /// through E[W(2)], E[W(3)], ... and, once the increments are stationary (converged to 1e-13
    /// relative), extrapolate linearly.
    /// - Complexity: O(log n) closed forms, or O(min(n, mixing time)) steps.
    public func maxAttempts(expectedTotalWaitAtMost limit: Duration) -> AttemptsWithinBudget {
        let budget = limit.nanoseconds / 1e9
        if case .immediate = schedule { return .any }
        if let perWait = jitter.meanPerNominalWait, !_clampAt.isFinite {
            let offset = _jitterSpread / 2
            func expected(_ attempts: Int) -> Double {
                let sums = NominalWaitSums(schedule: schedule, base: _base, cap: _cap, retries: attempts - 1)
                return perWait * sums.sumInSeconds + Double(attempts - 1) * offset / 1e9
            }
            guard expected(1) <= budget else { return .attempts(1) }
            var low = 1
            var high = 2
            while expected(high) <= budget {
                low = high
                guard high < Int.max / 4 else { return .attempts(high) }
                high *= 2
            }
            while high - low > 1 {
                let mid = low + (high - low) / 2
                if expected(mid) <= budget { low = mid } else { high = mid }
            }
            return .attempts(low)
        }
        let totals = expectedTotalWaits()
        var previous = 0.0
        var previousStep = 0.0
        var retries = 0
        while true {
            guard let mean = totals.next() else { return .unknown }
            if mean > budget { return .attempts(retries + 1) }
            retries += 1
            let step = mean - previous
            if retries > 8 && abs(step - previousStep) <= 1e-13 * step {
                return .attempts(retries + 1 + Int(((budget - mean) / step).rounded(.down)))
            }
            previous = mean
            previousStep = step
        }
    }

    /// E[W(2)], E[W(3)], ...: the expected total wait of 1, 2, ... retries in seconds, without end
    /// (the policy's attempt budget ignored); it ends where no closed form exists.
    private func expectedTotalWaits() -> AnyIterator<Double> {
        switch jitter {
        case .decorrelated(let r):
            var moments = DecorrelatedMoments(base: _base / 1e9, cap: _cap / 1e9, factor: r, chain: decorrelatedChain)
            return AnyIterator { moments.next()!.mean }
        case .decorrelatedMonotone(let r):
            var moments = DecorrelatedMoments(base: _base / 1e9, cap: _cap / 1e9, factor: r, chain: decorrelatedChain)
            var first = true
            let base = _base / 1e9
            return AnyIterator {
                defer { first = false }
                return first ? base : base + moments.next()!.mean
            }
        case .pollyV2:
            var retries = 0
            return AnyIterator {
                retries += 1
                guard !pollyClampCanBind(retries: retries) else { return nil }
                return PollyV2.scale(_base) * PollyV2.moments(at: retries - 1).mean / 1e9
            }
        case .disabled, .full, .equal, .proportional, .additive:
            var k = 0
            var total = 0.0
            return AnyIterator {
                k += 1
                total += expectedWindowWait(beforeRetry: k)
                return total / 1e9
            }
        }
    }
}

/// The answer of ``BackoffPolicy/maxAttempts(expectedTotalWaitAtMost:)``.
public enum AttemptsWithinBudget: Hashable, Sendable {
    /// At most this many attempts keep the expected total wait within the budget.
    case attempts(Int)
    /// Any number does: the waits are all zero.
    case any
    /// No closed form gives the expected total wait.
    case unknown
}

extension Jitter {
    /// E[w_k] / e_k for the modes whose mean wait is a fixed share of the nominal one (plus, for
    /// additive, D/2): 1, 1/2, 3/4, 1 and 1; `nil` for the modes with their own schedule.
    var meanPerNominalWait: Double? {
        switch self {
        case .disabled, .proportional, .additive: 1
        case .full: 0.5
        case .equal: 0.75
        case .decorrelated, .decorrelatedMonotone, .pollyV2: nil
        }
    }
}
