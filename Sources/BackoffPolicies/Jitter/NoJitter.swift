/// No jitter (`none`, ``Jitter/disabled``): every wait is its nominal value e_k = min(c, schedule_k),
/// as Alamofire waits. No uniform is drawn.
/// ```
/// w_k = e_k      E[W] = Σ e_k      Var[W] = 0      range [Σ e_k, Σ e_k]
/// ```
@usableFromInline
enum NoJitter: WindowJitterFamily {
    @usableFromInline static var streamIndex: UInt64 { 0 }
    @usableFromInline static func meanPerNominal(parameter: Double) -> Double { 1 }

    @usableFromInline static func window(parameter: Double) -> JitterWindow {
        JitterWindow(lowScale: 1, lowOffset: 0, highScale: 1, highOffset: 0)
    }

    @inlinable static func draw(nominal: Double, parameter: Double, _ u: Double) -> Double { nominal }

    @inlinable
    static func draw<Random: UniformSource>(
        _ policy: BackoffPolicy, retry k: Int, previous: inout Double, using random: inout Random
    ) -> Double {
        policy.nominalWaitNanoseconds(beforeRetry: k)
    }

    @inlinable
    static func drawTotalWaits<Random: UniformSource, Sink: TotalWaitSink>(
        _ policy: BackoffPolicy, count: Int, retries: Int, nominal: UnsafePointer<Double>, capWait: Int64,
        using random: inout Random, into sink: inout Sink
    ) -> Int {
        var total: Int64 = 0
        var capped = 0
        for k in 0..<retries {
            let wait = BackoffPolicy.wholeNanoseconds(min(policy._cap, nominal[k]))
            capped += wait == capWait ? count : 0
            total += wait
        }
        for run in 0..<count { sink.take(run: run, totalWait: total) }
        return capped
    }

    @usableFromInline static func window(_ policy: BackoffPolicy, retry k: Int, previous: Double) -> ClosedRange<Double>
    {
        let nominal = policy.nominalWaitNanoseconds(beforeRetry: k)
        return nominal...nominal
    }

    @usableFromInline static func law(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? {
        let e = policy.nominalWaitNanoseconds(beforeRetry: k)
        return (e, e, 0)
    }

    @usableFromInline static func roundedLaw(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? {
        let e = policy.nominalWaitNanoseconds(beforeRetry: k).rounded()
        return (e, e, 0)
    }

    @usableFromInline static func unclampedTotals(_ policy: BackoffPolicy, sums: NominalWaitSums, retries: Int) -> (
        mean: Double, variance: Double, capped: Double
    ) {
        (sums.sum, 0, Double(retries - sums.uncappedCount))
    }

    @usableFromInline static func unclampedMean(_ policy: BackoffPolicy, retry k: Int) -> Double {
        policy.nominalWaitNanoseconds(beforeRetry: k)
    }

    @usableFromInline static func totalWaitRange(_ policy: BackoffPolicy, retries: Int, largest: Double) -> ClosedRange<
        Double
    > {
        largest...largest
    }
}
