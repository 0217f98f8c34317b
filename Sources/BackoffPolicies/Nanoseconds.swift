/// A span of time in whole nanoseconds: a wait, a delay, a window, a bucket's width.
///
/// The toolkit's one vocabulary for time: public edges take `Duration` (spans) or `VirtualTime`
/// (instants); inside, spans are `Nanoseconds`, converted exactly once with
/// `Duration.wholeNanoseconds`; seconds appear only where a table is written.
public typealias Nanoseconds = Int64

extension Duration {
    /// This duration in whole nanoseconds, exactly (no trip through `Double`); a fraction of a
    /// nanosecond is dropped. Traps beyond ±2^63 ns (about 292 years).
    @inlinable
    public var wholeNanoseconds: Nanoseconds {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        precondition(!overflow && !sumOverflow, "\(self) does not fit in 2^63 nanoseconds")
        return sum
    }

    /// This duration in nanoseconds, as a `Double`, for arithmetic with real numbers: exact for
    /// whole nanoseconds up to 2^53 (the whole nanoseconds are split off in integers first).
    @inlinable
    public var nanoseconds: Double {
        let (seconds, attoseconds) = components
        let (wholeNanoseconds, remainder) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return Double(seconds) * 1e9 + Double(wholeNanoseconds) + Double(remainder) / 1e9
    }
}

extension Duration {
    /// This duration as the command line writes it: whole nanoseconds in the largest unit that
    /// divides them (h, m, s, ms, us, ns), e.g. `1500ms`, `2s`, `0ns`.
    public var unitText: String {
        let ns = wholeNanoseconds
        for (suffix, size) in Self.textUnits where ns != 0 && ns % size == 0 {
            return String(ns / size) + suffix
        }
        return String(ns) + "ns"
    }

    /// The units of ``unitText``, largest first (a table built once: a sweep writes millions).
    private static let textUnits: [(suffix: String, size: Int64)] = [
        ("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000),
    ]
}
