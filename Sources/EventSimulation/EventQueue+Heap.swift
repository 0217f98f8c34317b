#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The binary heap under the lanes: its root handed out lazily, its sifts, and its invariant.
extension EventQueue {
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
