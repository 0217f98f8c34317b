/// A priority queue of pending events, ordered by (time, priority, sequence).
///
/// A binary min-heap stored in one contiguous array of plain structs (Williams 1964; CLRS ch. 6).
/// **Invariant**: every entry's key is no smaller than its parent's, where the key is the triple
/// (time, priority, sequence) compared lexicographically. The sequence number is assigned on
/// insertion and increases by one each time, so events with equal time and priority leave the queue
/// in the order they entered it (FIFO): the order of ties is fully determined.
///
/// Priority and sequence are packed into one 64-bit key (priority in the top 8 bits), so a comparison
/// is two integer compares. No allocation happens per event once the array has grown.
public struct EventQueue<Payload> {
    @usableFromInline
    struct Entry {
        @usableFromInline var time: Int64
        @usableFromInline var order: UInt64
        @usableFromInline var payload: Payload

        @inlinable
        init(time: Int64, order: UInt64, payload: Payload) {
            self.time = time
            self.order = order
            self.payload = payload
        }

        @inlinable
        func precedes(_ other: Entry) -> Bool {
            time < other.time || (time == other.time && order < other.order)
        }
    }

    @usableFromInline var _storage: [Entry] = []
    @usableFromInline var _nextSequence: UInt64 = 0

    /// The largest priority; lower priorities run first at the same instant.
    public static var maximumPriority: Int { 255 }

    public init() {}

    /// The number of pending events. - Complexity: O(1).
    @inlinable public var count: Int { _storage.count }

    /// True when no event is pending. - Complexity: O(1).
    @inlinable public var isEmpty: Bool { _storage.isEmpty }

    /// Reserves room for `capacity` pending events. - Complexity: O(capacity).
    public mutating func reserveCapacity(_ capacity: Int) { _storage.reserveCapacity(capacity) }

    /// The time of the earliest pending event. - Complexity: O(1).
    @inlinable public var nextTime: VirtualTime? { _storage.first.map { VirtualTime(nanoseconds: $0.time) } }

    /// Adds an event. `priority` must lie in 0...255.
    /// - Complexity: O(log n).
    @inlinable
    public mutating func insert(_ payload: Payload, at time: VirtualTime, priority: Int = 0) {
        precondition((0...Self.maximumPriority).contains(priority), "event priority \(priority) is outside 0...255")
        let entry = Entry(time: time.nanoseconds, order: UInt64(priority) << 56 | _nextSequence, payload: payload)
        _nextSequence += 1
        _storage.append(entry)
        _siftUp(from: _storage.count - 1)
        _checkInvariants()
    }

    /// Removes and returns the earliest event, or `nil` when none is pending.
    /// - Complexity: O(log n).
    @inlinable
    public mutating func popFirst() -> (time: VirtualTime, payload: Payload)? {
        guard let last = _storage.popLast() else { return nil }
        guard !_storage.isEmpty else { return (VirtualTime(nanoseconds: last.time), last.payload) }
        let first = _storage[0]
        _siftDown(last)
        _checkInvariants()
        return (VirtualTime(nanoseconds: first.time), first.payload)
    }

    @inlinable
    mutating func _siftUp(from index: Int) {
        _storage.withUnsafeMutableBufferPointer { heap in
            var child = index
            let moving = heap[child]
            while child > 0 {
                let parent = (child - 1) / 2
                guard moving.precedes(heap[parent]) else { break }
                heap[child] = heap[parent]
                child = parent
            }
            heap[child] = moving
        }
    }

    /// Places `moving` into the hole at the root and lets it sink to its place.
    @inlinable
    mutating func _siftDown(_ moving: Entry) {
        _storage.withUnsafeMutableBufferPointer { heap in
            let n = heap.count
            var hole = 0
            while true {
                var child = 2 * hole + 1
                guard child < n else { break }
                if child + 1 < n && heap[child + 1].precedes(heap[child]) { child += 1 }
                guard heap[child].precedes(moving) else { break }
                heap[hole] = heap[child]
                hole = child
            }
            heap[hole] = moving
        }
    }

    /// Checks the heap invariant when compiled with `-D EVENT_QUEUE_CHECKS`; does nothing otherwise.
    @inlinable
    func _checkInvariants() {
        #if EVENT_QUEUE_CHECKS
        for index in 1..<max(1, _storage.count) {
            precondition(!_storage[index].precedes(_storage[(index - 1) / 2]), "heap invariant broken at \(index)")
        }
        #endif
    }
}
