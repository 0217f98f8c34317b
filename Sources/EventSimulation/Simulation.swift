/// A discrete-event simulation in exact virtual time: a clock and a queue of pending events.
///
/// Events are plain values of type `Event`. ``run(until:handle:)`` takes the earliest event,
/// moves the clock to its time and hands it to `handle`, which may schedule more. Events at the same
/// instant run by priority (lower first), then in the order they were scheduled. The engine knows
/// nothing of what its events mean; everything lives in this one value, with no global state.
public struct Simulation<Event> {
    /// The current virtual time: the time of the event being handled, or of the last one handled.
    @inlinable public var now: VirtualTime { _now }
    @usableFromInline var _now: VirtualTime = .zero
    @usableFromInline var _queue: EventQueue<Event>

    /// A simulation at time zero with no pending event; `lanes` ordered lanes (see ``EventQueue``)
    /// take events that their scheduler knows to come in order.
    public init(lanes: Int = 0) {
        _queue = EventQueue(lanes: lanes)
    }

    /// The number of events scheduled and not yet handled. - Complexity: O(1).
    public var pendingCount: Int { _queue.count }

    /// Reserves room for `capacity` pending events, in the heap or in lane `lane`. - Complexity: O(capacity).
    public mutating func reserveCapacity(_ capacity: Int, lane: Int? = nil) {
        _queue.reserveCapacity(capacity, lane: lane)
    }

    /// Schedules `event` at the absolute instant `time`, which must not be in the past.
    /// - Complexity: O(log n) for n pending events.
    @inlinable
    public mutating func schedule(_ event: Event, at time: VirtualTime, priority: Int = 0) {
        precondition(
            time >= now, "cannot schedule an event at \(time.nanoseconds) ns, before now (\(now.nanoseconds) ns)")
        _queue.insert(event, at: time, priority: priority)
    }

    /// Schedules `event` at `time` in ordered lane `lane` (or in the heap, where the lane would fall
    /// out of order): the same order of events as ``schedule(_:at:priority:)``, at O(1) cost for
    /// events scheduled in key order.
    @inlinable
    public mutating func schedule(_ event: Event, at time: VirtualTime, priority: Int = 0, lane: Int) {
        precondition(
            time >= now, "cannot schedule an event at \(time.nanoseconds) ns, before now (\(now.nanoseconds) ns)")
        _queue.insert(event, at: time, priority: priority, lane: lane)
    }

    /// Schedules `event` `delay` nanoseconds from now; `delay` must not be negative.
    /// - Complexity: O(log n) for n pending events.
    @inlinable
    public mutating func schedule(_ event: Event, after delay: Int64, priority: Int = 0) {
        precondition(delay >= 0, "cannot schedule an event after a negative delay (\(delay) ns)")
        _queue.insert(event, at: now + delay, priority: priority)
    }

    /// Schedules `event` `delay` nanoseconds from now in ordered lane `lane` (see
    /// ``schedule(_:at:priority:lane:)``): events that all wait the same delay come in order.
    @inlinable
    public mutating func schedule(_ event: Event, after delay: Int64, priority: Int = 0, lane: Int) {
        precondition(delay >= 0, "cannot schedule an event after a negative delay (\(delay) ns)")
        _queue.insert(event, at: now + delay, priority: priority, lane: lane)
    }

    /// Takes the earliest pending event if it is due before `limit`, moves the clock to its time
    /// and returns it; `nil` when none is. A driver that keeps events of its own outside the queue,
    /// drawn in time order (arrivals), passes the next one's time: on `nil` it moves the clock there
    /// with ``advance(to:)`` and handles its own event, which so comes before every pending event
    /// of the same instant, as an event scheduled before all of them at the lowest priority would.
    /// - Complexity: O(log n) for n pending events.
    @inlinable @inline(__always)
    public mutating func step(before limit: VirtualTime) -> Event? {
        guard let (time, event) = _queue.popFirst(before: limit) else { return nil }
        _now = time
        return event
    }

    /// Moves the clock to `time` for an event the driver keeps outside the queue, once
    /// ``step(before:)`` has said that no pending event comes before it. `time` must not be in the past.
    @inlinable
    public mutating func advance(to time: VirtualTime) {
        precondition(time >= now, "cannot advance to \(time.nanoseconds) ns, before now (\(now.nanoseconds) ns)")
        _now = time
    }

    /// Takes the earliest pending event, moves the clock to its time and returns it; `nil` when none
    /// is pending or the next one is later than `limit`. For drivers that keep their own loop:
    /// `while let event = simulation.step() { ... }`.
    /// - Complexity: O(log n) for n pending events.
    @inlinable
    public mutating func step(until limit: VirtualTime? = nil) -> Event? {
        if let limit {
            guard let next = _queue.nextTime, next <= limit else { return nil }
        }
        guard let (time, event) = _queue.popFirst() else { return nil }
        _now = time
        return event
    }

    /// Handles events in order until none is pending, or until the next one would be later than
    /// `limit` (events at exactly `limit` are handled). The clock ends at the last handled event.
    /// - Returns: the number of events handled.
    /// - Complexity: O(e log n) for e events handled.
    @inlinable
    @discardableResult
    public mutating func run(
        until limit: VirtualTime? = nil, handle: (inout Simulation<Event>, Event) throws -> Void
    ) rethrows -> Int {
        var handled = 0
        while let next = _queue.nextTime {
            if let limit, next > limit { break }
            let (time, event) = _queue.popFirst()!
            _now = time
            try handle(&self, event)
            handled += 1
        }
        return handled
    }
}
