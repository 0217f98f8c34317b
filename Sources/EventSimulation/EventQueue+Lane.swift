extension EventQueue {
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
}
