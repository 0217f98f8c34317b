import BackoffPolicies
import EventSimulation

/// A modelled server.
///
/// ```
/// always-fail     every attempt fails at once
/// bernoulli:P     each attempt fails at once, independently, with probability P (0 <= P <= 1)
/// outage:T        every attempt before T fails at once; every attempt at or after T succeeds
/// contention      one shared item under optimistic concurrency (AWS Architecture Blog, 2015): an
///                 attempt reads the item's version and then writes with it, each a round trip of
///                 two network hops; the write succeeds only if the version is unchanged
/// capacity        workers, a service-time distribution and a bounded queue (see CapacityModel)
/// trace           a failure probability over time, a step function read from an incident (FailureTrace)
/// ```
/// Bernoulli and outage failures may carry a Retry-After. Further models are components, each
/// declared in one file (``ServerComponent``, listed in ``ServerComponents/registered``): the token
/// bucket at the server (``RateLimit``, `ratelimit:R`) is the first.
public enum ServerModel: Hashable, Sendable {
    case alwaysFail
    case bernoulli(failureProbability: Double, retryAfter: RetryAfter? = nil)
    case outage(until: VirtualTime, retryAfter: RetryAfter? = nil)
    case contention(hop: NetworkDelay)
    case capacity(CapacityModel)
    case trace(FailureTrace)
    /// A model declared as a ``ServerComponent``.
    case component(AnyServerComponent)

    /// A token bucket at the server (``RateLimit``).
    public static func rateLimit(_ limit: RateLimit) -> ServerModel { .component(AnyServerComponent(limit)) }

    /// Throws when a parameter is outside its range.
    public func validate() throws(SimulationError) {
        switch self {
        case .alwaysFail:
            return
        case .bernoulli(let p, let retryAfter):
            guard (0...1).contains(p) else { throw .invalidFailureProbability(p) }
            if case .untilRecovery = retryAfter { throw .retryAfterNeedsRecovery }
            try Self.validate(retryAfter)
        case .outage(let end, let retryAfter):
            guard end >= .zero else { throw .negativeOutage(end) }
            try Self.validate(retryAfter)
        case .trace:
            return  // validated when made
        case .component(let component):
            try component.base.validate()
        case .contention(let hop):
            guard hop.mean >= .zero, hop.standardDeviation >= .zero else { throw .invalidNetworkDelay }
        case .capacity(let model):
            guard model.workers >= 1 else { throw .noWorkers(model.workers) }
            guard (1...CapacityModel.maximumReplicas).contains(model.replicas) else {
                throw .invalidReplicas(model.replicas)
            }
            guard model.queueLimit >= 0 else { throw .negativeQueueLimit(model.queueLimit) }
            guard model.queueDiscipline.isValid else { throw .invalidQueueDiscipline(model.queueDiscipline) }
            guard model.balancer.isValid else { throw .invalidBalancer(model.balancer) }
            try Self.validate(serviceTime: model.serviceTime)
            if let detection = model.outlierDetection, !detection.isValid {
                throw .invalidOutlierDetection(detection)
            }
            if let predicate = model.retryHostPredicate, !predicate.isValid {
                throw .invalidRetryHostPredicate(predicate)
            }
            if let faulty = model.faultyHosts {
                guard (1...model.replicas).contains(faulty.count), faulty.fault.isValid else {
                    throw .invalidHostFault(count: faulty.count, replicas: model.replicas)
                }
            }
            if let delay = model.rejectionRetryAfter, delay < .zero { throw .negativeRejectionRetryAfter }
            if let window = model.degradation {
                guard window.end > window.start, window.start >= .zero else { throw .degradationEndsBeforeStart }
                guard window.fraction > 0 && window.fraction <= 1 else {
                    throw .invalidDegradedCapacity(window.fraction)
                }
            }
            if let profile = model.capacityProfile {
                guard model.degradation == nil else { throw .degradationAndCapacityTrace }
                if let bad = profile.steps.first(where: { !($0.value > 0 && $0.value.isFinite) }) {
                    throw .invalidCapacityFactor(bad.value)
                }
            }
        }
    }

    /// A mixture's weights are probabilities that sum to 1 (to 1e-9), and its components are
    /// times of their own kinds: fixed at least 0, an exponential's mean and a lognormal's above 0.
    /// A service time's parameters are in range: a fixed or exponential time above 0, a lognormal
    /// mean above 0 with a standard deviation not negative, a mixture of valid components.
    static func validate(serviceTime: ServiceTime) throws(SimulationError) {
        switch serviceTime {
        case .deterministic(let t), .exponential(let t):
            guard t > .zero else { throw .nonPositiveServiceTime }
        case .lognormal(let mean, let sd):
            guard mean > .zero, sd >= .zero else { throw .invalidLognormalServiceTime }
        case .mixture(let parts):
            try validate(mixture: parts)
        }
    }

    private static func validate(mixture parts: [ServiceTime.Component]) throws(SimulationError) {
        guard !parts.isEmpty else { throw .invalidMixture("a mixture needs at least one component") }
        for part in parts {
            guard part.weight.isFinite, part.weight > 0 else {
                throw .invalidMixture("a component's weight must be greater than 0, got \(part.weight)")
            }
            switch part.time {
            case .deterministic(let t):
                guard t >= .zero else { throw .invalidMixture("a fixed time must not be negative") }
            case .exponential(let mean):
                guard mean > .zero else { throw .invalidMixture("an exponential's mean must be greater than 0") }
            case .lognormal(let mean, let sd):
                guard mean > .zero, sd >= .zero else { throw .invalidMixture("a lognormal needs mean > 0 and sd >= 0") }
            case .mixture:
                throw .invalidMixture("a component cannot be a mixture")
            }
        }
        let total = parts.reduce(0) { $0 + $1.weight }
        guard abs(total - 1) <= 1e-9 else { throw .invalidMixture("the weights must sum to 1, got \(total)") }
    }

    private static func validate(_ retryAfter: RetryAfter?) throws(SimulationError) {
        if case .fixed(let delay) = retryAfter, delay < .zero { throw .negativeRetryAfter }
    }

    /// When the server recovers, for a retry trigger that waits for the recovery signal: the end of
    /// the outage, of the capacity's degradation, or of a trace's incident. `nil` for a server that never does.
    public var recoveryTime: VirtualTime? {
        switch self {
        case .outage(let end, _): end
        case .capacity(let model): model.recoveryTime
        case .trace(let trace): trace.recoveryTime
        case .component(let component): component.base.recoveryTime
        default: nil
        }
    }

    /// True when a failure from this server can carry a Retry-After.
    public var sendsRetryAfter: Bool {
        switch self {
        case .bernoulli(_, let retryAfter), .outage(_, let retryAfter): retryAfter != nil
        case .capacity(let model): model.rejectionRetryAfter != nil
        case .trace(let trace): trace.steps.contains { $0.value.retryAfter != nil }
        case .component(let component): component.base.sendsRetryAfter
        default: false
        }
    }

    /// The kind of every failure the server answers with, when the server decides it: a rate
    /// limiter's are throttling errors. `nil` for the others, whose kind the scenario gives.
    public var failureKind: FailureKind? {
        if case .component(let component) = self { return component.base.failureKind }
        return nil
    }

    /// Whether the server's answers take time, so that a client's timeout applies: a capacity
    /// server's, and a component's that says so (``ServerComponent/takesTimeouts``).
    public var takesTimeouts: Bool {
        switch self {
        case .capacity: true
        case .component(let component): component.base.takesTimeouts
        default: false
        }
    }

    /// True for the servers that answer at once (always-fail, bernoulli, outage).
    public var answersAtOnce: Bool {
        switch self {
        case .alwaysFail, .bernoulli, .outage, .trace: true
        default: false
        }
    }
}
