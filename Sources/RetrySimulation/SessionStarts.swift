/// When each session of a client-by-client run starts, in nanoseconds. The runs are compiled once
/// per kind, so a burst reads no memory at all for its starts.
protocol SessionStarts: Sendable {
    /// The sessions.
    var count: Int { get }
    /// Session `index`'s start.
    subscript(index: Int) -> Int64 { get }
}

/// `count` sessions starting at 0 (a burst), held as a count only: a run of a billion clients
/// keeps nothing per client.
struct BurstStarts: SessionStarts {
    let count: Int
    @inline(__always) subscript(index: Int) -> Int64 { 0 }
}

/// Sessions starting at drawn times, in order.
struct DrawnStarts: SessionStarts {
    let times: [Int64]
    var count: Int { times.count }
    @inline(__always) subscript(index: Int) -> Int64 { times[index] }
}
