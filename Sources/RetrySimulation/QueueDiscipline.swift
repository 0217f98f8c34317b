import EventSimulation

/// The order in which a capacity server's free worker takes the attempts waiting in its queue,
/// and the waiting attempts it sheds instead (`simulate --queue-discipline`). Facebook's "Fail at
/// Scale" (Maurer, ACM Queue 2015) names the two defences a server that retries overload needs:
/// controlled delay and adaptive LIFO.
///
/// Every discipline but ``controlledDelay(target:interval:)`` serves every attempt it queues and
/// never looks at a service time, so it is work-conserving: an M/M/1 queue's mean response time,
/// 1/(μ − λ), is the same under each (its variance is not: under LIFO the second moment of the
/// wait is FIFO's divided by 1 − ρ). Checking deadlines (``CapacityModel/dropsExpired``) is
/// separate and works with any of them.
public enum QueueDiscipline: Hashable, Sendable {
    /// First in, first out: today's queue, and every server's default.
    case fifo
    /// Last in, first out: the newest attempt, whose caller is the likeliest to still wait, first.
    case lifo
    /// FIFO while the queue has been empty within the last `interval`, LIFO once it has not
    /// (Facebook's adaptive LIFO, which switches when a standing queue forms).
    case adaptiveLIFO(interval: Duration)
    /// Facebook's controlled delay (CoDel): while the queue has been empty within the last
    /// `interval`, an attempt may wait up to `interval`; once it has not, up to `target`. A worker
    /// sheds an attempt that waited longer: it answers it at once with a failure (as a full queue
    /// does, so its caller may retry; counted in `rejected`) and takes the next.
    case controlledDelay(target: Duration, interval: Duration)

    /// Facebook's values: M = 5 ms, N = 100 ms.
    public static let defaultTarget = Duration.milliseconds(5)
    public static let defaultInterval = Duration.milliseconds(100)

    /// Whether the discipline may shed an attempt it queued (only controlled delay).
    public var sheds: Bool {
        if case .controlledDelay = self { true } else { false }
    }

    /// The discipline's parameters are in range: durations positive and within virtual time's
    /// horizon, and a target no longer than its interval (a longer one would let an overloaded
    /// queue hold attempts longer than a healthy one).
    public var isValid: Bool {
        switch self {
        case .fifo, .lifo: true
        case .adaptiveLIFO(let interval): Self.isPositive(interval)
        case .controlledDelay(let target, let interval):
            Self.isPositive(target) && Self.isPositive(interval) && target <= interval
        }
    }

    private static func isPositive(_ duration: Duration) -> Bool {
        duration > .zero && duration <= .nanoseconds(VirtualTime.horizon.nanoseconds)
    }
}
