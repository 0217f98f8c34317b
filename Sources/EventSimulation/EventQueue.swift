#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
///
/// **The root is removed lazily.** A pop hands out the heap's root and only marks it taken; the
/// next insert puts its event in the root's place and lets it sink (one sift instead of a sift
/// down for the pop and a sift up for the insert, as `heapreplace` does), and the next pop that
/// comes first removes it the usual way. A simulation's handler typically schedules one event per
/// event it handles, so most pops and inserts pair up this way. The order of events is unchanged.
///
/// **Ordered lanes.** Events that are known to be scheduled in key order (arrivals drawn ahead and
/// sorted, timeouts that all share one delay) may go to a lane: a FIFO whose entries keep increasing
/// keys. A pop takes the least of the heap's root and the lanes' heads, by the same key, so the order
/// in which events leave is exactly the heap's; an insert that would put a lane out of order goes to
/// the heap instead. **Invariant**: within each lane, keys increase from head to tail.
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

        /// 1 when this entry precedes `other`, else 0: ``precedes(_:)`` as a number, computed
        /// without a branch, so a sift picks a child by arithmetic instead of a jump that a
        /// processor mispredicts about every other time.
        @inlinable
        func precedesBit(_ other: Entry) -> Int {
            let earlier = time < other.time ? 1 : 0
            let tied = (time == other.time ? 1 : 0) & (order < other.order ? 1 : 0)
            return earlier | tied
        }
    }

    /// A FIFO of entries whose keys increase from head to tail: a ring buffer whose capacity is a
    /// power of two, doubled when full, so neither end moves the others.
    @usableFromInline
    struct Lane {
        @usableFromInline var ring: [Entry?] = []
        @usableFromInline var head = 0
        @usableFromInline var count = 0

        @inlinable init() {}

        @inlinable var first: Entry? { count > 0 ? ring[head] : nil }
        @inlinable var last: Entry? { count > 0 ? ring[(head + count - 1) & (ring.count - 1)] : nil }

        @inlinable
        mutating func append(_ entry: Entry) {
            if count == ring.count { reserveCapacity(Swift.max(16, 2 * count)) }
            ring[(head + count) & (ring.count - 1)] = entry
            count += 1
        }

        @inlinable
        mutating func removeFirst() {
            ring[head] = nil
            head = (head + 1) & (ring.count - 1)
            count -= 1
        }

        /// Room for `capacity` entries (rounded up to a power of two), keeping them in order.
        @usableFromInline
        mutating func reserveCapacity(_ capacity: Int) {
            guard capacity > ring.count else { return }
            var size = 16
            while size < capacity { size *= 2 }
            var grown = [Entry?](repeating: nil, count: size)
            for offset in 0..<count { grown[offset] = ring[(head + offset) & (ring.count - 1)] }
            ring = grown
            head = 0
        }
    }

    @usableFromInline var _storage: [Entry] = []
    /// The heap's root was handed out by a pop and is not pending any more (see above).
    @usableFromInline var _rootTaken = false
    @usableFromInline var _lanes: [Lane]
    /// Events waiting in lanes, all lanes together: with none, a pop goes straight to the heap.
    @usableFromInline var _lanePending = 0
    @usableFromInline var _nextSequence: UInt64 = 0

    /// The largest priority; lower priorities run first at the same instant.
    public static var maximumPriority: Int { 255 }

    /// A queue with `lanes` ordered lanes (numbered from 0).
    public init(lanes: Int = 0) {
        precondition(lanes >= 0, "the number of lanes must not be negative")
        _lanes = Array(repeating: Lane(), count: lanes)
    }

    /// The number of pending events. - Complexity: O(1).
    @inlinable public var count: Int { _storage.count - (_rootTaken ? 1 : 0) + _lanePending }

    /// True when no event is pending. - Complexity: O(1).
    @inlinable public var isEmpty: Bool { count == 0 }

    /// Reserves room for `capacity` pending events in the heap, or in lane `lane`. - Complexity: O(capacity).
    public mutating func reserveCapacity(_ capacity: Int, lane: Int? = nil) {
        if let lane { _lanes[lane].reserveCapacity(capacity) } else { _storage.reserveCapacity(capacity) }
    }

    /// The time of the earliest pending event. - Complexity: O(lanes).
    @inlinable public var nextTime: VirtualTime? { _first.map { VirtualTime(nanoseconds: $0.entry.time) } }

    /// The earliest pending entry and where it is: lane `source`, or the heap (`source` -1).
    @inlinable
    var _first: (entry: Entry, source: Int)? {
        var best = _heapFirst
        var source = -1
        if _lanePending > 0 {
            // Each lane's head read in place, not through an Optional-returning accessor per lane.
            for index in _lanes.indices where _lanes[index].count > 0 {
                let head = _lanes[index].ring[_lanes[index].head]!
                if best == nil || head.precedes(best!) { (best, source) = (head, index) }
            }
        }
        return best.map { ($0, source) }
    }

    /// The heap's earliest pending entry: the root, or while the root is taken the lesser of its children.
    @inlinable
    var _heapFirst: Entry? {
        guard _rootTaken else { return _storage.first }
        guard _storage.count > 1 else { return nil }
        guard _storage.count > 2 else { return _storage[1] }
        return _storage[2].precedes(_storage[1]) ? _storage[2] : _storage[1]
    }

    /// Adds an event. `priority` must lie in 0...255.
    /// - Complexity: O(log n).
    @inlinable
    public mutating func insert(_ payload: Payload, at time: VirtualTime, priority: Int = 0) {
        _insertIntoHeap(_entry(payload, at: time, priority: priority))
    }

    /// Adds an event to lane `lane`, or to the heap when it would come before the lane's last event.
    /// - Complexity: O(1) when the lane stays in order, O(log n) otherwise.
    @inlinable
    public mutating func insert(_ payload: Payload, at time: VirtualTime, priority: Int = 0, lane: Int) {
        precondition(_lanes.indices.contains(lane), "lane \(lane) does not exist (the queue has \(_lanes.count))")
        let entry = _entry(payload, at: time, priority: priority)
        if let last = _lanes[lane].last, entry.precedes(last) {
            _insertIntoHeap(entry)
        } else {
            _lanes[lane].append(entry)
            _lanePending += 1
        }
    }

    @inlinable
    mutating func _entry(_ payload: Payload, at time: VirtualTime, priority: Int) -> Entry {
        precondition((0...Self.maximumPriority).contains(priority), "event priority \(priority) is outside 0...255")
        defer { _nextSequence += 1 }
        return Entry(time: time.nanoseconds, order: UInt64(priority) << 56 | _nextSequence, payload: payload)
    }

    @inlinable
    mutating func _insertIntoHeap(_ entry: Entry) {
        if _rootTaken {
            _rootTaken = false
            _siftDown(entry)  // into the taken root's place
        } else {
            _storage.append(entry)
            _siftUp(from: _storage.count - 1)
        }
        _checkInvariants()
    }

    /// Removes and returns the earliest event, or `nil` when none is pending.
    /// - Complexity: O(log n), plus O(lanes) while events wait in lanes.
    @inlinable
    public mutating func popFirst() -> (time: VirtualTime, payload: Payload)? {
        if _rootTaken { _removeTakenRoot() }
        if _lanePending == 0 { return _popHeap() }
        guard let (entry, source) = _first else { return nil }
        if source < 0 {
            _rootTaken = true
        } else {
            _lanes[source].removeFirst()
            _lanePending -= 1
        }
        return (VirtualTime(nanoseconds: entry.time), entry.payload)
    }

    /// Hands out the heap's root, marking it taken. (No root is taken when this is called.)
    @inlinable
    mutating func _popHeap() -> (time: VirtualTime, payload: Payload)? {
        guard let first = _storage.first else { return nil }
        _rootTaken = true
        return (VirtualTime(nanoseconds: first.time), first.payload)
    }

    /// Removes the taken root: the last entry fills its place and sinks.
    @inlinable
    mutating func _removeTakenRoot() {
        _rootTaken = false
        let last = _storage.removeLast()
        if !_storage.isEmpty { _siftDown(last) }
        _checkInvariants()
    }

    @inlinable
    mutating func _siftUp(from index: Int) {
        _storage.withUnsafeMutableBufferPointer { heap in
            var child = index
            let moving = heap[child]
            while child > 0 {
                let parent = (child &- 1) >> 1  // wrapping arithmetic: indices stay far below overflow
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
                var child = 2 &* hole &+ 1
                guard child < n else { break }
                if child &+ 1 < n { child &+= heap[child &+ 1].precedesBit(heap[child]) }
                guard heap[child].precedes(moving) else { break }
                heap[hole] = heap[child]
                hole = child
            }
            heap[hole] = moving
        }
    }

    /// Checks the heap's and the lanes' invariants after every operation, in O(n): in a debug build
    /// when the environment sets `EVENT_QUEUE_CHECKS=1` (scripts/test runs the engine's tests so,
    /// on the build the other tests use), and always when compiled with `-D EVENT_QUEUE_CHECKS`.
    /// A release build compiles the checks out.
    @inlinable
    func _checkInvariants() {
        #if DEBUG || EVENT_QUEUE_CHECKS
            guard _EventQueueChecks.areOn else { return }
            for index in 1..<max(1, _storage.count) where !(_rootTaken && index <= 2) {
                precondition(!_storage[index].precedes(_storage[(index - 1) / 2]), "heap invariant broken at \(index)")
            }
            for lane in _lanes where lane.count > 1 {
                for offset in 1..<lane.count {
                    let (earlier, later) = (
                        lane.ring[(lane.head + offset - 1) & (lane.ring.count - 1)]!,
                        lane.ring[(lane.head + offset) & (lane.ring.count - 1)]!
                    )
                    precondition(earlier.precedes(later), "lane out of order at \(offset)")
                }
            }
        #endif
    }
}

#if DEBUG || EVENT_QUEUE_CHECKS
    /// Whether ``EventQueue`` checks its invariants (see `_checkInvariants`), read once.
    @usableFromInline
    enum _EventQueueChecks {
        @usableFromInline
        static let areOn: Bool = {
            #if EVENT_QUEUE_CHECKS
                return true
            #else
                return getenv("EVENT_QUEUE_CHECKS").map { String(cString: $0) == "1" } ?? false
            #endif
        }()
    }
#endif
