import EventSimulation
import Testing

/// Engine tests read as timelines: each handled event appends (time, label) to a log.
@Suite struct SimulationTests {
    struct Entry: Equatable, CustomStringConvertible {
        let time: Int64
        let label: String
        var description: String { "\(time):\(label)" }
    }

    @Test func eventsRunInTimeThenPriorityThenSchedulingOrder() {
        var simulation = Simulation<String>()
        simulation.schedule("c", at: VirtualTime(nanoseconds: 30))
        simulation.schedule("a-late", at: VirtualTime(nanoseconds: 10), priority: 1)
        simulation.schedule("a1", at: VirtualTime(nanoseconds: 10))
        simulation.schedule("a2", at: VirtualTime(nanoseconds: 10))
        simulation.schedule("b", at: VirtualTime(nanoseconds: 20))
        var log: [Entry] = []
        let handled = simulation.run { simulation, label in
            log.append(Entry(time: simulation.now.nanoseconds, label: label))
        }
        #expect(handled == 5)
        #expect(log.map(\.description) == ["10:a1", "10:a2", "10:a-late", "20:b", "30:c"])
    }

    @Test func handlersScheduleFollowUpsIncludingAtTheSameInstant() {
        var simulation = Simulation<String>()
        simulation.schedule("ping", at: .zero)
        var log: [String] = []
        simulation.run { simulation, label in
            log.append("\(simulation.now.nanoseconds):\(label)")
            switch label {
            case "ping":
                simulation.schedule("pong", after: 5)
                simulation.schedule("same-instant", after: 0)
            case "pong" where simulation.now.nanoseconds < 15:
                simulation.schedule("pong", after: 5)
            default: break
            }
        }
        #expect(log == ["0:ping", "0:same-instant", "5:pong", "10:pong", "15:pong"])
        #expect(simulation.now.nanoseconds == 15)
    }

    /// Events a driver keeps outside the queue (arrivals drawn in order) merge with the queue's as if
    /// all had been scheduled first: before every pending event of their instant, whatever its
    /// priority, and the handled order is the order of a run that scheduled them all ahead.
    @Test func eventsKeptOutsideTheQueueComeFirstAtTheirInstant() {
        let arrivals: [Int64] = [0, 0, 10, 20, 20, 35]
        func follow(_ label: String, _ time: Int64, into simulation: inout Simulation<String>) {
            // Each arrival's follow-ups: one at its own instant, one at a later arrival's, with a
            // priority each; a follow-up schedules nothing.
            guard !label.contains("+") else { return }
            simulation.schedule("\(label)+0", after: 0, priority: 1)
            simulation.schedule("\(label)+10", after: 10)
        }
        var ahead = Simulation<String>()
        for (index, time) in arrivals.enumerated() {
            ahead.schedule("arrival \(index)", at: VirtualTime(nanoseconds: time))
        }
        var expected: [Entry] = []
        while let label = ahead.step() {
            expected.append(Entry(time: ahead.now.nanoseconds, label: label))
            follow(label, ahead.now.nanoseconds, into: &ahead)
        }
        var merged = Simulation<String>()
        var handled: [Entry] = []
        var next = 0
        while true {
            let limit =
                next < arrivals.count ? VirtualTime(nanoseconds: arrivals[next]) : VirtualTime(nanoseconds: .max)
            if let label = merged.step(before: limit) {
                handled.append(Entry(time: merged.now.nanoseconds, label: label))
                follow(label, merged.now.nanoseconds, into: &merged)
                continue
            }
            guard next < arrivals.count else { break }
            merged.advance(to: limit)
            handled.append(Entry(time: merged.now.nanoseconds, label: "arrival \(next)"))
            follow("arrival \(next)", merged.now.nanoseconds, into: &merged)
            next += 1
        }
        #expect(handled == expected)
        #expect(handled.count == 3 * arrivals.count)
    }

    @Test func runUntilStopsAfterTheLimitInclusive() {
        var simulation = Simulation<Int>()
        for t in [5, 10, 15] { simulation.schedule(t, at: VirtualTime(nanoseconds: Int64(t))) }
        var log: [Int] = []
        simulation.run(until: VirtualTime(nanoseconds: 10)) { _, t in log.append(t) }
        #expect(log == [5, 10])
        #expect(simulation.pendingCount == 1)
        simulation.run { _, t in log.append(t) }
        #expect(log == [5, 10, 15])
    }

    /// Virtual time is integer nanoseconds: 100 ms + 200 ms is exactly 300 ms.
    @Test func virtualTimeIsExact() {
        let t = VirtualTime.zero + 100_000_000 + 200_000_000
        #expect(t == VirtualTime(nanoseconds: 300_000_000))
        #expect(t.nanoseconds / 100_000_000 == 3)
        #expect(t.seconds == 0.3)
    }

    @Test func schedulingInThePastIsRejected() async {
        await #expect(processExitsWith: .failure) {
            var simulation = Simulation<Int>()
            simulation.schedule(1, after: -1)
        }
    }
}
