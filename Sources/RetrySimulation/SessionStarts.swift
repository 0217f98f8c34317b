/// When each session of a run starts, in nanoseconds: all at 0 (a burst, held as a count only, so a
/// client-by-client run of a billion clients keeps nothing per client), or drawn times in order.
struct SessionStarts: Sendable {
    /// The sessions.
    let count: Int
    /// The drawn start times, sorted; `nil` for a burst.
    private let times: [Int64]?

    /// `count` sessions starting at 0.
    static func burst(_ count: Int) -> SessionStarts { SessionStarts(count: count, times: nil) }

    /// Sessions starting at `times`, in order.
    static func drawn(_ times: [Int64]) -> SessionStarts { SessionStarts(count: times.count, times: times) }

    /// Session `index`'s start.
    @inline(__always)
    subscript(index: Int) -> Int64 { times?[index] ?? 0 }
}
