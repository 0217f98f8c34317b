import Foundation

/// Closed-form companions of a policy, for a request whose every attempt fails at once (attempts
/// take no time, so an attempt starts when the wait before it ends). All results are in seconds.
extension BackoffPolicy {
    /// The mean and variance of the total wait W = w_1 + ... + w_(n-1), or `nil` where no closed form
    /// applies (a random jitter mode together with `maxElapsed`, which truncates the sum at random).
    ///
    /// With the nominal waits e_k = min(c, schedule_k) (sums in closed form: see `NominalWaitSums`):
    /// ```
    /// none          E[W] = Σ e_k              Var[W] = 0
    /// full          E[W] = Σ e_k / 2          Var[W] = Σ e_k² / 12
    /// equal         E[W] = 3 Σ e_k / 4        Var[W] = Σ e_k² / 48
    /// decorrelated  the recursion of `DecorrelatedMoments` (exact without a binding cap,
    ///               deterministic numerical integration with one)
    /// ```
    /// For an uncapped exponential schedule Σ e_k is the geometric series b (m^(n-1) - 1) / (m - 1).
    /// The immediate schedule waits zero, whatever the jitter.
    public var totalWaitMoments: TotalWaitMoments? {
        guard let moments = totalWaitMomentsInNanoseconds else { return nil }
        // Computed in nanoseconds and converted once, so 3/4 of 1.6 s reads 1.2 s.
        return TotalWaitMoments(mean: moments.mean / 1e9, variance: moments.variance / 1e18)
    }

    private var totalWaitMomentsInNanoseconds: TotalWaitMoments? {
        let retries = maxAttempts - 1
        if case .immediate = schedule { return TotalWaitMoments(mean: 0, variance: 0) }
        if maxElapsed != nil {
            guard jitter == .disabled else { return nil }
            let total = nominalStartTimes.last ?? 0
            return TotalWaitMoments(mean: total * 1e9, variance: 0)
        }
        if retries == 0 { return TotalWaitMoments(mean: 0, variance: 0) }
        if case .decorrelated(let r) = jitter {
            var moments = DecorrelatedMoments(base: _base, cap: _cap, factor: r, retries: retries)
            var last = TotalWaitMoments(mean: 0, variance: 0)
            for _ in 0..<retries { last = moments.next()! }
            return last
        }
        let sums = NominalWaitSums(schedule: schedule, base: _base, cap: _cap, retries: retries)
        switch jitter {
        case .full: return TotalWaitMoments(mean: sums.sum / 2, variance: sums.sumOfSquares / 12)
        case .equal: return TotalWaitMoments(mean: 3 * sums.sum / 4, variance: sums.sumOfSquares / 48)
        default: return TotalWaitMoments(mean: sums.sum, variance: 0)
        }
    }

    /// E[W] in seconds; see ``totalWaitMoments``.
    public var expectedTotalWait: Double? { totalWaitMoments?.mean }

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
        if case .decorrelated(let r) = jitter {
            var moments = DecorrelatedMoments(base: _base, cap: _cap, factor: r, retries: retries)
            return [0] + (0..<retries).map { _ in moments.next()!.mean / 1e9 }
        }
        // Accumulate in nanoseconds and convert each sum once, so 0.1 s + 0.2 s reads 0.3 s.
        let fraction = jitter.meanFraction
        var starts: [Double] = [0]
        var total = 0.0
        for k in stride(from: 1, to: maxAttempts, by: 1) {
            total += fraction * nominalWait(beforeRetry: k)
            starts.append(total / 1e9)
        }
        return starts
    }

    /// The smallest and largest total wait any draw can produce, in seconds:
    /// ```
    /// none [Σe, Σe]   full [0, Σe]   equal [Σe/2, Σe]   decorrelated [(n-1) b, Σ min(c, b r^k)]
    /// ```
    /// With `maxElapsed` and random jitter the range is [0, min(largest, maxElapsed)].
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
        switch jitter {
        case .disabled: return largest...largest
        case .full: return 0...largest
        case .equal: return largest / 2...largest
        case .decorrelated: return Double(retries) * _base / 1e9...largest
        }
    }

    /// The first retry k whose wait the cap can limit: e_k = c (none, full, equal), or b r^k > c,
    /// so that a draw can reach the cap (decorrelated). `nil` when the cap never binds within the budget.
    public var firstCappedRetry: Int? {
        let retries = maxAttempts - 1
        guard _cap.isFinite, retries > 0 else { return nil }
        if case .immediate = schedule { return nil }
        let uncapped: Int
        if case .decorrelated(let r) = jitter {
            // k with b r^k <= c cannot reach the cap; count them as an exponential schedule from b r.
            var k = 0
            while k < retries && _base * pow(r, Double(k + 1)) <= _cap { k += 1 }
            uncapped = k
        } else {
            uncapped = NominalWaitSums.uncappedCount(schedule: schedule, base: _base, cap: _cap, retries: retries)
        }
        return uncapped < retries ? uncapped + 1 : nil
    }

    /// The largest number of attempts n whose expected total wait E[W(n)] stays at or under `limit`,
    /// with every other parameter of this policy (its own attempt budget and `maxElapsed` are
    /// ignored). `nil` when every n qualifies because the waits are all zero.
    ///
    /// E[W(n)] never decreases in n, so the answer is found by doubling and bisection on the closed
    /// forms; decorrelated jitter steps through its recursion, and once the chain is stationary
    /// (the increment of E[W] has converged to 1e-13 relative) extrapolates linearly.
    /// - Complexity: O(log n) closed forms, or O(min(n, mixing time)) recursion steps for decorrelated.
    public func maxAttempts(expectedTotalWaitAtMost limit: Duration) -> Int? {
        let budget = limit.nanoseconds / 1e9
        if case .immediate = schedule { return nil }
        if case .decorrelated(let r) = jitter {
            var moments = DecorrelatedMoments(base: _base / 1e9, cap: _cap / 1e9, factor: r)
            var previous = 0.0
            var previousStep = 0.0
            var retries = 0
            while true {
                let mean = moments.next()!.mean
                if mean > budget { return retries + 1 }
                retries += 1
                let step = mean - previous
                if retries > 8 && abs(step - previousStep) <= 1e-13 * step {
                    return retries + 1 + Int(((budget - mean) / step).rounded(.down))
                }
                previous = mean
                previousStep = step
            }
        }
        let fraction = jitter.meanFraction
        func expected(_ attempts: Int) -> Double {
            fraction * NominalWaitSums(schedule: schedule, base: _base, cap: _cap, retries: attempts - 1).sumInSeconds
        }
        guard expected(1) <= budget else { return 1 }
        var low = 1
        var high = 2
        while expected(high) <= budget {
            low = high
            guard high < Int.max / 4 else { return high }
            high *= 2
        }
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if expected(mid) <= budget { low = mid } else { high = mid }
        }
        return low
    }
}

extension Jitter {
    /// E[w_k] / e_k for the jitter modes that scale the nominal wait: 1, 1/2 and 3/4.
    var meanFraction: Double {
        switch self {
        case .disabled: 1
        case .full: 0.5
        case .equal: 0.75
        case .decorrelated: .nan
        }
    }
}
