import EventSimulation

/// A server with a fixed number of workers in front of a bounded FIFO queue.
///
/// An attempt that finds a free worker is served at once; one that finds every worker busy waits
/// in the queue; one that finds the queue full is rejected at once (a throttle, optionally with a
/// Retry-After). A served attempt whose client has already timed out is still served: that is
/// wasted work. During the optional degradation window, a service that starts in [start, end)
/// takes its time divided by `fraction` (capacity drops to that fraction), the trigger of an overload.
public struct CapacityModel: Hashable, Sendable {
    public let workers: Int
    public let serviceTime: ServiceTime
    /// The most attempts that may wait for a worker.
    public let queueLimit: Int
    /// The delay sent with a rejection, if any.
    public let rejectionRetryAfter: Duration?
    public let degradation: Degradation?

    public init(
        workers: Int, serviceTime: ServiceTime, queueLimit: Int, rejectionRetryAfter: Duration? = nil,
        degradation: Degradation? = nil
    ) {
        self.workers = workers
        self.serviceTime = serviceTime
        self.queueLimit = queueLimit
        self.rejectionRetryAfter = rejectionRetryAfter
        self.degradation = degradation
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
