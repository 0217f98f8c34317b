import BackoffPolicies
import Synchronization

/// A value behind a mutex with a time base: a clock, read as nanoseconds since the value's creation.
/// The shared limits (budget, breaker, throttle) keep their state here, so every caller's request
/// lands on one timeline, whichever retry loop it came from.
final class ClockedMutex<Value: Sendable, C: Clock>: Sendable where C.Duration == Duration {
    private let value: Mutex<Value>
    let clock: C
    private let origin: C.Instant

    init(_ value: Value, clock: C) {
        self.value = Mutex(value)
        self.clock = clock
        origin = clock.now
    }

    /// The time since creation on the clock, in nanoseconds.
    var elapsed: Nanoseconds { origin.duration(to: clock.now).wholeNanoseconds }

    /// A copy of the value as it is now.
    var current: Value { value.withLock { $0 } }

    /// Runs `body` on the value under the lock, with the time read just before taking it.
    func withLock<Result: Sendable>(_ body: (inout Value, Nanoseconds) -> Result) -> Result {
        let now = elapsed
        return value.withLock { body(&$0, now) }
    }
}
