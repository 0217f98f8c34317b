import EventSimulation

/// The rule by which goodput "came back" after a capacity trigger (`recovered`,
/// `recovery_time_s`), one rule for the simulated timeline and the fluid's: the start of the first
/// `window`-long span, starting at or after the trigger's end, whose successes per second reach
/// `fraction` of those of [0, trigger start) (the level before the trigger).
public enum GoodputRecovery {
    /// The recovery time in nanoseconds after `end`, from successes counted per bucket of
    /// `bucketWidth` nanoseconds from 0; `nil` when no span within `horizon` after `end` reaches the
    /// level, or when nothing succeeded before the trigger.
    public static func time(
        successes: [Double], bucketWidth: Int64, triggerStart start: VirtualTime, triggerEnd end: VirtualTime,
        fraction: Double = 0.9, window: Int64 = 1_000_000_000, horizon: Int64 = 10_000_000_000
    ) -> Int64? {
        let before = Int(start.nanoseconds / bucketWidth)
        guard before > 0 else { return nil }
        let baseline = successes.prefix(before).reduce(0, +) / (Double(before) * Double(bucketWidth))
        guard baseline > 0 else { return nil }
        let span = max(1, Int(window / bucketWidth))
        var index = Int((end.nanoseconds + bucketWidth - 1) / bucketWidth)
        let last = Int((end.nanoseconds + horizon) / bucketWidth)
        while index <= last && index + span <= successes.count {
            let rate = successes[index..<(index + span)].reduce(0, +) / (Double(span) * Double(bucketWidth))
            if rate >= fraction * baseline { return Int64(index) * bucketWidth - end.nanoseconds }
            index += 1
        }
        return nil
    }

    /// How long after the trigger's end the rule needs successes: the horizon and one window.
    public static let span: Int64 = 11_000_000_000
}
