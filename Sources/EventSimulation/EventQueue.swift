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
        return _take(entry, from: source)
    }

    /// Removes and returns the earliest event if it is due before `limit`; `nil` otherwise (the
    /// queue keeps it). A driver with events of its own in time order (arrivals) passes the next
    /// one's time, so its event comes before every pending event of the same instant.
    /// - Complexity: O(log n), plus O(lanes) while events wait in lanes.
    @inlinable @inline(__always)
    public mutating func popFirst(before limit: VirtualTime) -> (time: VirtualTime, payload: Payload)? {
        if _rootTaken { _removeTakenRoot() }
        if _lanePending == 0 {
            guard let first = _storage.first, first.time < limit.nanoseconds else { return nil }
            _rootTaken = true
            return (VirtualTime(nanoseconds: first.time), first.payload)
        }
        guard let (entry, source) = _first, entry.time < limit.nanoseconds else { return nil }
        return _take(entry, from: source)
    }

    /// Takes `entry`, the earliest pending one, from where it waits: the heap's root (`source` -1,
    /// marked taken) or the head of lane `source`.
    @inlinable @inline(__always)
    mutating func _take(_ entry: Entry, from source: Int) -> (time: VirtualTime, payload: Payload) {
        if source < 0 {
            _rootTaken = true
        } else {
            _lanes[source].removeFirst()
            _lanePending -= 1
        }
        return (VirtualTime(nanoseconds: entry.time), entry.payload)
    }
}
