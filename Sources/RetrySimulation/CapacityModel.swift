import EventSimulation

/// A server with a fixed number of workers in front of a bounded FIFO queue.
///
/// An attempt that finds a free worker is served at once; one that finds every worker busy waits
/// in the queue; one that finds the queue full is rejected at once (a throttle, optionally with a
/// Retry-After). A served attempt whose client has already timed out is still served: that is
/// wasted work. During the optional degradation window, a service that starts in [start, end)
/// takes its time divided by `fraction` (capacity drops to that fraction), the trigger of an overload.
/// A capacity profile (an incident's trace) generalises the window to a step function: a service
/// takes its time divided by the factor in force when it starts.
public struct CapacityModel: Hashable, Sendable {
    public let workers: Int
    public let serviceTime: ServiceTime
    /// The most attempts that may wait for a worker.
    public let queueLimit: Int
    /// The delay sent with a rejection, if any.
    public let rejectionRetryAfter: Duration?
    public let degradation: Degradation?
    /// Capacity over time, as factors of the full capacity (at most one of this and `degradation`).
    public let capacityProfile: StepFunction<Double>?

    public init(
        workers: Int, serviceTime: ServiceTime, queueLimit: Int, rejectionRetryAfter: Duration? = nil,
        degradation: Degradation? = nil, capacityProfile: StepFunction<Double>? = nil
    ) {
        self.workers = workers
        self.serviceTime = serviceTime
        self.queueLimit = queueLimit
        self.rejectionRetryAfter = rejectionRetryAfter
        self.degradation = degradation
        self.capacityProfile = capacityProfile
    }

    /// When capacity first drops below full: the trigger of the overload.
    public var triggerStart: VirtualTime? {
        degradation?.start ?? capacityProfile?.steps.first { $0.value < 1 }?.start
    }

    /// When capacity is full again for good after the drop; `nil` without a drop or a return.
    public var recoveryTime: VirtualTime? {
        if let degradation { return degradation.end }
        guard let profile = capacityProfile, triggerStart != nil else { return nil }
        return profile.settles { $0 >= 1 }
    }

    /// A capacity drop: services starting in [start, end) take their time divided by `fraction`.
    public struct Degradation: Hashable, Sendable {
        public let start: VirtualTime
        public let end: VirtualTime
        public let fraction: Double

        public init(start: VirtualTime, end: VirtualTime, fraction: Double) {
            self.start = start
            self.end = end
            self.fraction = fraction
        }
    }
}
