/// A double-ended queue in one contiguous array that grows by doubling: O(1) amortised append,
/// and removal at either end, no allocation per element once grown.
struct RingBuffer<Element> {
    private var storage: [Element?] = []
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Appends at the back. - Complexity: amortised O(1).
    mutating func append(_ element: Element) {
        if count == storage.count { grow() }
        storage[(head + count) % storage.count] = element
        count += 1
    }

    /// Removes and returns the front element. - Complexity: O(1).
    mutating func popFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = storage[head]
        storage[head] = nil
        head = (head + 1) % storage.count
        count -= 1
        return element
    }

    /// Removes and returns the back element. - Complexity: O(1).
    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        let index = (head + count) % storage.count
        let element = storage[index]
        storage[index] = nil
        return element
    }

    private mutating func grow() {
        var larger = [Element?](repeating: nil, count: max(16, storage.count * 2))
        for offset in 0..<count { larger[offset] = storage[(head + offset) % storage.count] }
        storage = larger
        head = 0
    }
}
