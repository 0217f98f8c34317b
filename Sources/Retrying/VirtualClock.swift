import Synchronization

/// A `Clock` whose time moves only when a test advances it: retries can be tested as timelines
/// (attempts at 0, 100, 300, 700 ms) without waiting in real time.
///
/// Sleepers are resumed, in deadline order, when ``advance(by:)`` or ``advance(to:)`` reaches their
/// deadline; a cancelled sleeper throws `CancellationError` at once. ``sleepUntilSomeoneWaits(attempts:)``
/// lets a test wait until the code under test has started to sleep.
public final class VirtualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Time since the clock's start.
        public let offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
        var cancelled: Set<Int> = []
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// How many tasks are sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline of a sleeping task.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Result<Void, any Error>? in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelled.insert(id)  // cancelled before it registered
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward to `instant` and wakes every sleeper whose deadline it reaches.
    public func advance(to instant: Instant) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = max(state.now, instant)
            let due = state.sleepers.filter { $0.deadline <= state.now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Moves the time forward by `duration`.
    public func advance(by duration: Duration) { advance(to: now.advanced(by: duration)) }

    /// Suspends the calling test until at least one task sleeps on this clock (or `attempts` yields
    /// pass). - Returns: whether someone sleeps.
    @discardableResult
    public func sleepUntilSomeoneWaits(attempts: Int = 10_000) async -> Bool {
        for _ in 0..<attempts {
            if sleeperCount > 0 { return true }
            await Task.yield()
        }
        return sleeperCount > 0
    }
}
