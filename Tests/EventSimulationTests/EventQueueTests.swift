import EventSimulation
import Testing

@Suite struct EventQueueTests {
    /// A small linear congruential generator keeps this test free of other modules.
    struct LCG {
        var state: UInt64
        mutating func next(below bound: UInt64) -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (state >> 33) % bound
        }
    }

    /// The reference queue's earliest event by (time, priority, insertion), removed.
    static func removeFirst(
        from reference: inout [(time: Int64, priority: Int, sequence: Int)]
    ) -> (time: Int64, priority: Int, sequence: Int) {
        let index = reference.indices.min { a, b in
            let (x, y) = (reference[a], reference[b])
            return (x.time, x.priority, x.sequence) < (y.time, y.priority, y.sequence)
        }!
        return reference.remove(at: index)
    }

    /// Random inserts and pops against a sorted reference: the queue must release events in
    /// (time, priority, insertion) order.
    @Test(arguments: [1 as UInt64, 2, 3])
    func popsInKeyOrderUnderRandomInterleaving(seed: UInt64) {
        var random = LCG(state: seed)
        var queue = EventQueue<Int>()
        var reference: [(time: Int64, priority: Int, sequence: Int)] = []
        var sequence = 0
        var popped: [Int] = []
        var expected: [Int] = []
        for _ in 0..<5_000 {
            if random.next(below: 3) < 2 || reference.isEmpty {
                let time = Int64(random.next(below: 50))
                let priority = Int(random.next(below: 3))
                queue.insert(sequence, at: VirtualTime(nanoseconds: time), priority: priority)
                reference.append((time, priority, sequence))
                sequence += 1
            } else {
                expected.append(Self.removeFirst(from: &reference).sequence)
                popped.append(queue.popFirst()!.payload)
            }
        }
        #expect(popped == expected, "seed \(seed)")
        #expect(queue.count == reference.count)
    }

    /// The same with two ordered lanes: events go to the heap or to a lane (in order or not; an
    /// out-of-order lane insert falls back to the heap), and still leave in (time, priority,
    /// insertion) order.
    @Test(arguments: [4 as UInt64, 5, 6])
    func lanesKeepTheHeapsOrder(seed: UInt64) {
        var random = LCG(state: seed)
        var queue = EventQueue<Int>(lanes: 2)
        var reference: [(time: Int64, priority: Int, sequence: Int)] = []
        var laneTimes: [Int64] = [0, 0]
        var now: Int64 = 0
        var sequence = 0
        var popped: [Int] = []
        var expected: [Int] = []
        for _ in 0..<5_000 {
            if random.next(below: 3) < 2 || reference.isEmpty {
                let priority = Int(random.next(below: 2))
                let choice = Int(random.next(below: 3))
                let time: Int64
                if choice < 2 && random.next(below: 10) > 0 {
                    // mostly in order for its lane: at or after the lane's last time
                    laneTimes[choice] = max(laneTimes[choice], now) + Int64(random.next(below: 3))
                    time = laneTimes[choice]
                } else {
                    time = now + Int64(random.next(below: 50))
                }
                if choice < 2 {
                    queue.insert(sequence, at: VirtualTime(nanoseconds: time), priority: priority, lane: choice)
                } else {
                    queue.insert(sequence, at: VirtualTime(nanoseconds: time), priority: priority)
                }
                reference.append((time, priority, sequence))
                sequence += 1
            } else {
                let next = Self.removeFirst(from: &reference)
                now = next.time
                expected.append(next.sequence)
                #expect(queue.nextTime == VirtualTime(nanoseconds: now), "seed \(seed)")
                popped.append(queue.popFirst()!.payload)
            }
        }
        #expect(popped == expected, "seed \(seed)")
        #expect(queue.count == reference.count)
    }

    /// A pop only marks the heap's root taken (the next insert or pop removes it): every reader
    /// in between (count, nextTime, a copy of the queue) must already see it gone.
    @Test func aPoppedRootIsGoneForEveryReader() {
        var queue = EventQueue<Int>()
        for (payload, time) in [(1, 30), (2, 10), (3, 20), (4, 40)] {
            queue.insert(payload, at: VirtualTime(nanoseconds: Int64(time)))
        }
        #expect(queue.popFirst()?.payload == 2)
        #expect(queue.count == 3 && queue.nextTime == VirtualTime(nanoseconds: 20))
        var copy = queue
        #expect(copy.popFirst()?.payload == 3 && copy.count == 2)
        queue.insert(5, at: VirtualTime(nanoseconds: 25))  // takes the popped root's place
        #expect(queue.count == 4)
        #expect(
            [queue.popFirst(), queue.popFirst(), queue.popFirst(), queue.popFirst(), queue.popFirst()].map {
                $0?.payload
            } == [3, 5, 1, 4, nil])
        #expect(queue.isEmpty && copy.count == 2 && copy.nextTime == VirtualTime(nanoseconds: 30))
    }

    @Test func emptyQueuePopsNothing() {
        var queue = EventQueue<Int>()
        #expect(queue.popFirst() == nil)
        #expect(queue.isEmpty && queue.nextTime == nil)
    }
}
