/// An instant of simulated time: a whole number of nanoseconds since the simulation's origin.
///
/// Virtual time is exact: 0.1 s + 0.2 s is 300,000,000 ns, so an attempt at 0.3 s lands in the
/// bucket that starts at 0.3 s. It is converted to seconds only for output.
public struct VirtualTime: Hashable, Comparable, Sendable {
    public var nanoseconds: Int64

    @inlinable
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = VirtualTime(nanoseconds: 0)

    /// Virtual time's horizon: 2^62 ns, about 146 years. Every span the toolkit takes (a wait, a
    /// delay, a service time, a window) is at most this long, and a run stops with an error once
    /// its clock passes it, so the sum of an instant and a span never leaves `Int64`.
    /// (Computed and inlinable, so a comparison with it folds to a constant in every module.)
    @inlinable public static var horizon: VirtualTime { VirtualTime(nanoseconds: 1 << 62) }

    /// The instant `offset` after the origin, in whole nanoseconds (a fraction of one is dropped).
    public init(_ offset: Duration) {
        let (seconds, attoseconds) = offset.components
        nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// This instant in seconds (for output only).
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    @inlinable
    public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// The instant `nanoseconds` after `time`, saturating: a sum beyond `Int64` is `Int64.max`
    /// nanoseconds, past the ``horizon``, where a run stops with an error (a span is never so
    /// negative that the sum falls below `Int64.min`).
    @inlinable
    public static func + (time: VirtualTime, nanoseconds: Int64) -> VirtualTime {
        let (sum, overflow) = time.nanoseconds.addingReportingOverflow(nanoseconds)
        return VirtualTime(nanoseconds: overflow ? .max : sum)
    }
}
