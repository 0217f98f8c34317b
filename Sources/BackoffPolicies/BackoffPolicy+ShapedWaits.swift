/// Waits shaped after the jitter's draw: a first retry of its own (``FirstRetry``) and waits floored
/// to a granularity. The draws and the closed forms of such a policy go through this file; a policy
/// without either never reaches it.
///
/// Both need independent waits (``Jitter/buildsItsOwnSchedule`` false), so the wait before retry k
/// has the law the family gives, X = U(low, high) with probability 1 - a and exactly c with
/// probability a, and the shaped wait is
/// ```
/// Y_1 = 0 (immediate) or e_1 (unjittered), Y_k = X_k otherwise
/// with granularity g:  Y = g floor(Y / g)
/// ```
/// The closed forms sum the shaped waits' own moments (they stay independent). For a floored
/// uniform, with s = g floor(low/g), J = floor(high/g) - floor(low/g), the first bin's length
/// g (floor(low/g) + 1) - low and the last's l = high - g floor(high/g):
/// ```
/// E[Y - s]   = (g² Σ_(i<J) i + g J l) / (high - low)          Σ_(i<J) i  = (J-1) J / 2
/// E[(Y-s)²]  = (g³ Σ_(i<J) i² + g² J² l) / (high - low)       Σ_(i<J) i² = (J-1) J (2J-1) / 6
/// ```
/// and a window within one bin gives the point s. For Envoy's whole milliseconds with an integer
/// window of W ms this is the discrete uniform on {0, ..., W-1} ms: mean (W-1)/2, variance (W²-1)/12.
extension BackoffPolicy {
    /// The shaped wait before retry k from the family's draw, in whole nanoseconds.
    @inlinable
    func shapedWait<Family: JitterFamily, Random: UniformSource>(
        _ family: Family.Type, retry k: Int, previous: inout Double, using random: inout Random
    ) -> Int64 {
        if k == 1 {
            switch firstRetry {
            case .immediate: return 0
            case .unjittered: return wholeWait(nominalWaitNanoseconds(beforeRetry: 1))
            case .jittered: break
            }
        }
        return wholeWait(Family.draw(self, retry: k, previous: &previous, using: &random))
    }

    /// A wait in whole nanoseconds: floored to the granularity if there is one, else rounded.
    @inlinable
    func wholeWait(_ wait: Double) -> Int64 {
        _grain > 0 ? Int64((wait / _grain).rounded(.down) * _grain) : Self.wholeNanoseconds(wait)
    }

    /// The law of the wait before retry k before shaping, in nanoseconds: the first-retry rule's
    /// point, or the family's law.
    func unshapedLaw(beforeRetry k: Int) -> (low: Double, high: Double, atCap: Double) {
        if case .immediate = schedule { return (0, 0, 0) }
        if k == 1 {
            switch firstRetry {
            case .immediate: return (0, 0, 0)
            case .unjittered:
                let e = nominalWaitNanoseconds(beforeRetry: 1)
                return (e, e, 0)
            case .jittered: break
            }
        }
        // Every family whose waits are independent has a law (the init refuses the others).
        return jitter.kernel.law(self, retry: k) ?? (0, 0, 0)
    }

    /// The value a wait of `x` nanoseconds is shaped to by the granularity (x itself without one).
    func floored(_ x: Double) -> Double { _grain > 0 ? (x / _grain).rounded(.down) * _grain : x }

    /// Mean, variance and probability of equalling the (rounded) cap of the shaped wait before retry
    /// k, in nanoseconds.
    func shapedWaitMoments(beforeRetry k: Int) -> (mean: Double, variance: Double, atCap: Double) {
        let law = unshapedLaw(beforeRetry: k)
        let capWait = roundedCap.map(Double.init) ?? -1
        let uniform = Self.flooredUniformMoments(low: law.low, high: law.high, grain: _grain)
        let atom = floored(_cap)
        // The uniform part reaches the cap with the probability of the bin [c, c + g) (a point
        // without a granularity), the atom when c is a multiple of g.
        var uniformAtCap = 0.0
        if law.high == law.low {
            uniformAtCap = floored(law.low).rounded() == capWait ? 1 : 0
        } else if _grain > 0, floored(_cap) == _cap, _cap.isFinite {
            uniformAtCap = max(0, min(law.high, _cap + _grain) - max(law.low, _cap)) / (law.high - law.low)
        }
        let a = law.atCap
        let mean = (1 - a) * uniform.mean + a * atom
        let variance = (1 - a) * uniform.variance + a * (1 - a) * (uniform.mean - atom) * (uniform.mean - atom)
        let atCap = (1 - a) * uniformAtCap + (a > 0 && atom.rounded() == capWait ? a : 0)
        return (mean, variance, atCap)
    }

    /// E[Y] and Var[Y] of Y = g floor(X/g), X ~ U(low, high) (X itself when g is 0, a point when
    /// low = high), in nanoseconds; see the forms above.
    static func flooredUniformMoments(low: Double, high: Double, grain g: Double) -> (mean: Double, variance: Double) {
        guard g > 0 else { return ((low + high) / 2, (high - low) * (high - low) / 12) }
        let (j0, j1) = ((low / g).rounded(.down), (high / g).rounded(.down))
        guard high > low, j1 > j0 else { return (g * j0, 0) }
        let (width, bins, last) = (high - low, j1 - j0, high - g * j1)
        let sumBelow = (bins - 1) * bins / 2
        let sumSquaresBelow = (bins - 1) * bins * (2 * bins - 1) / 6
        let m1 = (g * g * sumBelow + g * bins * last) / width
        let m2 = (g * g * g * sumSquaresBelow + g * g * bins * bins * last) / width
        return (g * j0 + m1, max(0, m2 - m1 * m1))
    }

    /// Σ of the shaped waits' moments over `retries` waits (mean, variance, expected waits at the
    /// cap), in nanoseconds; a run of equal laws after the first retry is summed at once. `nil` past
    /// 10^7 distinct laws (an uncapped linear schedule with a tiny increment and a huge budget).
    func shapedTotals(retries: Int) -> (mean: Double, variance: Double, capped: Double)? {
        var totals = (mean: 0.0, variance: 0.0, capped: 0.0)
        var k = 1
        var previousLaw: (low: Double, high: Double, atCap: Double)?
        while k <= retries {
            guard k <= 10_000_000 else { return nil }
            let law = unshapedLaw(beforeRetry: k)
            let wait = shapedWaitMoments(beforeRetry: k)
            let repeats = k > 2 && previousLaw.map { $0 == law } == true ? Double(retries - k + 1) : 1
            totals.mean += repeats * wait.mean
            totals.variance += repeats * wait.variance
            totals.capped += repeats * wait.atCap
            if repeats > 1 { break }
            previousLaw = law
            k += 1
        }
        return totals
    }

    /// E[t_1] ... E[t_n] in seconds for shaped waits.
    func shapedExpectedStartTimes(retries: Int) -> [Double] {
        var starts: [Double] = [0]
        var total = 0.0
        for k in stride(from: 1, through: retries, by: 1) {
            total += shapedWaitMoments(beforeRetry: k).mean
            starts.append(total / 1e9)
        }
        return starts
    }

    /// E[W(2)], E[W(3)], ... in seconds for shaped waits (the attempt-budget search).
    func shapedExpectedTotals() -> AnyIterator<Double> {
        var k = 0
        var total = 0.0
        return AnyIterator { [self] in
            k += 1
            total += shapedWaitMoments(beforeRetry: k).mean
            return total / 1e9
        }
    }

    /// The smallest and largest shaped total wait, in seconds.
    func shapedTotalWaitRange(retries: Int) -> ClosedRange<Double> {
        var (low, high) = (0.0, 0.0)
        var k = 1
        var previousLaw: (low: Double, high: Double, atCap: Double)?
        while k <= retries {
            let law = unshapedLaw(beforeRetry: k)
            let atomOnly = law.atCap >= 1
            let repeats = k > 2 && previousLaw.map { $0 == law } == true ? Double(retries - k + 1) : 1
            low += repeats * floored(atomOnly ? _cap : law.low)
            high += repeats * greatestWait(law)
            if repeats > 1 { break }
            previousLaw = law
            k += 1
        }
        return low / 1e9...high / 1e9
    }

    /// The interval the shaped wait before retry k lies in, in nanoseconds (from the family's window).
    /// With a granularity its ends are the least and greatest values a wait takes (see
    /// ``greatestWait(_:)``).
    func shapedWindow(_ window: ClosedRange<Double>, retry k: Int) -> ClosedRange<Double> {
        let law = unshapedLaw(beforeRetry: k)
        if k == 1 && firstRetry != .jittered { return floored(law.low)...floored(law.high) }
        return floored(
            window.lowerBound)...max(floored(window.lowerBound), min(floored(window.upperBound), greatestWait(law)))
    }

    /// The greatest value a shaped wait of `law` takes: a uniform draw stays below its window's top,
    /// so with a granularity a top on a whole unit is never reached (Envoy's first window of 25 ms
    /// gives 0 ... 24 ms), unless the cap is drawn as an atom.
    func greatestWait(_ law: (low: Double, high: Double, atCap: Double)) -> Double {
        if law.atCap > 0 { return floored(_cap) }
        let top = floored(law.high)
        return _grain > 0 && law.high > law.low && top == law.high ? max(floored(law.low), top - _grain) : top
    }
}
