/// Where ``BackoffPolicy/drawTotalWaits(_:using:into:)`` puts each request's total wait: a buffer
/// of nanoseconds, of seconds, a running summary. A sink is generic, not a closure, so the hot loop
/// writes straight into it.
public protocol TotalWaitSink {
    /// Request `run` (0, 1, ... in order) waited `totalWait` nanoseconds in all.
    mutating func take(run: Int, totalWait: Nanoseconds)
}

/// A closure as a sink, for callers off the hot path.
public struct TotalWaitClosure: TotalWaitSink {
    let body: (Int, Nanoseconds) -> Void

    public init(_ body: @escaping (Int, Nanoseconds) -> Void) { self.body = body }

    public mutating func take(run: Int, totalWait: Nanoseconds) { body(run, totalWait) }
}
