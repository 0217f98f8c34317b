import EventSimulation

/// What some hosts of a capacity server's replica set do instead of serving as the others do
/// (`simulate --host-fault COUNT:KIND`): "one bad host of 10" is `count` 1 of `--replicas 10`.
/// The faulty hosts are the replicas numbered 0 to `count` − 1; every balancer treats the
/// replicas alike, so which ones they are changes nothing but the draws.
///
/// A bad host is where retries meet the balancer: a retry drawn uniformly lands on it again with
/// probability `count`/K, and a least-request balancer, which counts the copies in flight at each
/// host, sends more to a host that fails fast, as it holds few (Envoy issues 39737, fasthttp 865:
/// the "black hole").
public struct FaultyHosts: Hashable, Sendable {
    /// How many of the replicas misbehave (the first ones), 1 to the replica count.
    public let count: Int
    public let fault: HostFault

    public init(count: Int, fault: HostFault) {
        self.count = count
        self.fault = fault
    }
}

/// What a faulty host does (see ``FaultyHosts``).
public enum HostFault: Hashable, Sendable {
    /// Every attempt fails after `latency`, without waiting for a worker or taking one: a host
    /// whose process errors at once (a bad deploy, a dependency it cannot reach). Its copies in
    /// flight are few, which is what draws a least-request balancer to it.
    case failFast(latency: Duration)
    /// The host serves as the others do, and each answer it would give is a failure with
    /// `probability` (a retryable error after the work was done), drawn from the client's stream.
    case failing(probability: Double)
    /// The host serves with its own service time.
    case slow(ServiceTime)
    /// The host refuses at once every attempt that reaches it in [start, end) (a crashed host: the
    /// connection is refused); work it holds already goes on.
    case down(start: VirtualTime, end: VirtualTime)

    /// Fail-fast's latency when a spec gives none: Envoy issue 39737's host answers in about 1 ms.
    public static let defaultLatency = Duration.milliseconds(1)

    /// The fault's values are in range: a latency not negative and within virtual time's horizon,
    /// a probability in [0, 1], a valid service time, a window that ends after it starts at or
    /// after 0.
    public var isValid: Bool {
        switch self {
        case .failFast(let latency):
            latency >= .zero && latency <= .nanoseconds(VirtualTime.horizon.nanoseconds)
        case .failing(let probability):
            (0...1).contains(probability)
        case .slow(let time):
            (try? ServerModel.validate(serviceTime: time)) != nil
        case .down(let start, let end):
            start >= .zero && end > start
        }
    }
}
