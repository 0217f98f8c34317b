import Synchronization

/// How far runs have come: the sessions (clients) that have ended, counted as they end by any
/// thread of any run given it, and read by any other, e.g. a progress line on stderr.
///
/// A run reports in steps, not session by session: a client-by-client run after each chunk of
/// 2^20 clients, an event-ordered run every ``step`` sessions and at its end.
/// Reporting never changes a number of the run.
public final class RunProgress: Sendable {
    private let ended = Atomic<Int>(0)

    public init() {}

    /// The sessions that have ended so far, over every run that reports here.
    public var sessionsEnded: Int { ended.load(ordering: .relaxed) }

    /// `count` more sessions have ended.
    public func add(_ count: Int) {
        ended.wrappingAdd(count, ordering: .relaxed)
    }

    /// The sessions an event-ordered run lets end between two reports.
    public static let step = 1 << 14
}
