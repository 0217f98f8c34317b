/// A count of events over a trailing time window, kept as `slots` sub-intervals (a ring), so old
/// events expire a slot at a time: the count covers between window - window/slots and window.
struct SlidingCount: Hashable, Sendable {
    let window: Int64
    private var counts: [Int]
    private var slotStarts: [Int64]

    init(window: Int64, slots: Int) {
        self.window = window
        counts = [Int](repeating: 0, count: max(1, slots))
        slotStarts = [Int64](repeating: Int64.min, count: max(1, slots))
    }

    private var slotLength: Int64 { max(1, window / Int64(counts.count)) }

    /// Adds one event at `now` (times must not go backwards).
    mutating func add(at now: Nanoseconds, count: Int = 1) {
        let start = now - now % slotLength
        let slot = Int((start / slotLength) % Int64(counts.count))
        if slotStarts[slot] != start {
            slotStarts[slot] = start
            counts[slot] = 0
        }
        counts[slot] += count
    }

    /// The events of the slots that are still within the window at `now`.
    func total(at now: Nanoseconds) -> Int {
        var total = 0
        for (index, start) in slotStarts.enumerated() where start != Int64.min && now - start < window {
            total += counts[index]
        }
        return total
    }
}
