/// The families whose waits are independent, each with a mean of its own (the window families and
/// exponential): the expected attempt starts and totals are running sums of those means, and the
/// total's moments sums of each wait's. What they share is here.
@usableFromInline
protocol IndependentWaitFamily: JitterFamily {
    /// E[w_k] in nanoseconds.
    static func expectedWait(_ policy: BackoffPolicy, retry k: Int) -> Double
}

extension IndependentWaitFamily {
    @usableFromInline static func expectedStartTimes(_ policy: BackoffPolicy, retries: Int) -> [Double]? {
        // Accumulate in nanoseconds and convert each sum once, so 0.1 s + 0.2 s reads 0.3 s.
        var starts: [Double] = [0]
        var total = 0.0
        for k in stride(from: 1, through: retries, by: 1) {
            total += expectedWait(policy, retry: k)
            starts.append(total / 1e9)
        }
        return starts
    }

    @usableFromInline static func expectedTotals(_ policy: BackoffPolicy) -> AnyIterator<Double> {
        var k = 0
        var total = 0.0
        return AnyIterator {
            k += 1
            total += expectedWait(policy, retry: k)
            return total / 1e9
        }
    }

    /// Σ over `retries` waits of each wait's moments, `wait(nominal)` those of the wait whose
    /// window nominal is e (a share at the cap counted too). Once the schedule stops growing, or a
    /// wait `isSettled` (it can only be the cap), every later wait is the same.
    static func summedMoments(
        _ policy: BackoffPolicy, retries: Int, isSettled: (Double) -> Bool = { _ in false },
        _ wait: (Double) -> (mean: Double, variance: Double, atCap: Double)
    ) -> (mean: Double, variance: Double, capped: Double) {
        var totals = (mean: 0.0, variance: 0.0, capped: 0.0)
        var previous = -1.0
        var k = 1
        while k <= retries {
            let e = policy.windowNominal(beforeRetry: k)
            let moments = wait(e)
            let repeats = (e == previous || isSettled(e)) ? Double(retries - k + 1) : 1
            totals.mean += repeats * moments.mean
            totals.variance += repeats * moments.variance
            totals.capped += repeats * moments.atCap
            if repeats > 1 { break }
            previous = e
            k += 1
        }
        return totals
    }
}
