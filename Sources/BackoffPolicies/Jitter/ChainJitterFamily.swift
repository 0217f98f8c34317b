/// The families whose waits depend on each other (the decorrelated chains, polly-v2): a wait has no
/// law of its own, the mean is no share of a nominal wait, and many requests are drawn one draw at a
/// time, as a request is. What they share is here.
@usableFromInline
protocol ChainJitterFamily: JitterFamily {}

extension ChainJitterFamily {
    @usableFromInline static var buildsItsOwnSchedule: Bool { true }

    @usableFromInline static func law(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? { nil }

    @usableFromInline static func roundedLaw(_ policy: BackoffPolicy, retry k: Int) -> (
        low: Double, high: Double, atCap: Double
    )? { nil }

    @usableFromInline static func meanPerNominalWait(_ policy: BackoffPolicy) -> (perNominal: Double, offset: Double)? {
        nil
    }

    @inlinable
    static func drawTotalWaits<Random: UniformSource, Sink: TotalWaitSink>(
        _ policy: BackoffPolicy, count: Int, retries: Int, nominal: UnsafePointer<Double>, capWait: Int64,
        using random: inout Random, into sink: inout Sink
    ) -> Int {
        BackoffPolicy.drawSequences(Self.self, policy, count: count, retries: retries, capWait: capWait, &random, &sink)
    }
}
