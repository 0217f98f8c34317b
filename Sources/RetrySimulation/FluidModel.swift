import Foundation

/// The capacity server under retries as a fluid: the mean-field equations of its backlog and of
/// the requests waiting to retry, for any service time and any jitter (issue 46 §3). Where the
/// Markov chain (``RetrialQueue``) answers exactly for memoryless scenarios, this model answers
/// approximately for all, and it is the limit the simulation tends to as arrivals, workers and
/// queue are scaled up together (by law of large numbers: the backlog's wait becomes a number).
///
/// Per replica (the replicas share the arrivals evenly), with λ new requests a second, c workers
/// of mean service s, a queue of K places, capacity factor f(t), attempt timeout T and retry waits
/// of means e_1 … e_(n−1):
/// - Q is the work at the server (attempts queued or in service). It drains at min(Q, c) f / s.
///   An attempt admitted now waits w for a worker, the time the workers take to drain the
///   (Q − c)⁺ ahead of it at the capacity to come, and its caller gives up on it with probability
///   q = P(w + S / f' > T), S the service time (its own law, not its mean) and f' the capacity
///   when its service starts.
/// - Attempt k is sent at a_1 = λ and a_(k+1) = R_k / e_k. When Q reaches c + K (or, when the
///   server drops expired work, the backlog whose wait is T), only the drain is admitted; the rest
///   is refused in proportion.
/// - A refused attempt waits e_k at once (R_k); one that times out is known to fail T after it
///   was sent (U_k, an Erlang delay of mean T), then waits e_k; the nth attempt's failure is a
///   give-up.
///
/// What is approximated, and why the simulation comes close as it grows: the retry waits are
/// exponential stages of the policy's mean waits (their jitter laws enter through their means
/// only), the timeout's delay an Erlang law of 8 stages, a wait is the drain of the backlog
/// alone (not of attempts that a later queue's order would put ahead), and a success counts when
/// its attempt is admitted. The fixed points depend on the means alone; the approximations shape
/// the trajectory between them, and matter most near a regime's boundary.
public struct FluidModel: Hashable, Sendable {
    /// New requests a second, over every replica, while arrivals last.
    public let arrivalRate: Double
    /// When arrivals stop, in seconds; `nil`: never.
    public let arrivalsEnd: Double?
    public let replicas: Int
    /// Workers of each replica.
    public let workers: Int
    /// Waiting places of each replica.
    public let queueLimit: Int
    public let serviceTime: ServiceTime
    /// The attempt timeout T in seconds; `nil`: callers wait as long as it takes.
    public let timeout: Double?
    /// Whether a worker drops work whose caller has gone (the deadline-checking server).
    public let dropsExpired: Bool
    /// e_k, the mean wait before retry k, in seconds (k = 1 … n − 1).
    public let retryWaits: [Double]
    /// The capacity factor over time: (start in seconds, factor), the first at 0, starts rising.
    public let capacity: [CapacityStep]
    /// A request's longest life away from the queue, in seconds: every attempt timing out (or
    /// served), and every retry wait.
    var longestLife: Double {
        Double(maxAttempts) * ((timeout ?? 0) + meanService) + retryWaits.reduce(0, +)
    }

    /// The mean service time s, in seconds (kept: the equations read it at every evaluation).
    let meanService: Double

    /// A capacity factor from `start` seconds on.
    public struct CapacityStep: Hashable, Sendable {
        public let start: Double
        public let factor: Double

        public init(start: Double, factor: Double) {
            (self.start, self.factor) = (start, factor)
        }
    }

    /// The shortest mean retry wait the model takes, in seconds: a shorter one is a loop of no
    /// time, which a fluid cannot integrate.
    public static let shortestRetryWait = 1e-6

    /// The most a model's fastest rate (a worker's 1/s, a retry stage's 1/e_k, a timeout stage's
    /// m/T) times the span it is followed over (its arrivals and five of a request's longest
    /// lives) may be: an explicit integrator takes a few steps per unit of that product, and a
    /// model beyond it (1 ns services over seconds) would take minutes, so it has no fluid.
    public static let stiffnessLimit = 1e7

    /// - Returns: `nil` for a model out of range: no workers, a rate or a time that is not a
    ///   finite positive number, a retry wait under ``shortestRetryWait``, capacity steps that
    ///   do not start at 0 and rise, or a model too stiff to integrate (``stiffnessLimit``).
    public init?(
        arrivalRate: Double, arrivalsEnd: Double?, replicas: Int = 1, workers: Int, queueLimit: Int,
        serviceTime: ServiceTime, timeout: Double?, dropsExpired: Bool = false, retryWaits: [Double],
        capacity: [CapacityStep] = [CapacityStep(start: 0, factor: 1)]
    ) {
        guard arrivalRate.isFinite, arrivalRate > 0, replicas >= 1, workers >= 1, queueLimit >= 0,
            serviceTime.mean > .zero, arrivalsEnd.map({ $0.isFinite && $0 > 0 }) ?? true,
            timeout.map({ $0.isFinite && $0 > 0 }) ?? true,
            retryWaits.allSatisfy({ $0.isFinite && $0 >= Self.shortestRetryWait }),
            capacity.first?.start == 0, zip(capacity, capacity.dropFirst()).allSatisfy({ $0.start < $1.start }),
            capacity.allSatisfy({ $0.factor.isFinite && $0.factor >= 0 })
        else { return nil }
        self.arrivalRate = arrivalRate
        self.arrivalsEnd = arrivalsEnd
        self.replicas = replicas
        self.workers = workers
        self.queueLimit = queueLimit
        self.serviceTime = serviceTime
        self.timeout = timeout
        self.dropsExpired = dropsExpired && timeout != nil
        self.retryWaits = retryWaits
        self.capacity = capacity
        meanService = serviceTime.mean.nanoseconds / 1e9
        let fastest = max(
            1 / meanService, timeout.map { Double(Self.learningStages) / $0 } ?? 0, 1 / (retryWaits.min() ?? .infinity))
        let span = (arrivalsEnd ?? 0) + max(10, 5 * longestLife)
        guard fastest * span <= Self.stiffnessLimit else { return nil }
    }

    /// n, the most attempts a request makes.
    public var maxAttempts: Int { retryWaits.count + 1 }

    /// The capacity factor in force at `t` seconds.
    func capacityFactor(at t: Double) -> Double {
        capacity.last { $0.start <= t }!.factor
    }

    /// The times at which the right-hand side jumps (capacity steps, the end of arrivals), after 0.
    var breakpoints: [Double] {
        (capacity.dropFirst().map(\.start) + [arrivalsEnd].compactMap { $0 }).sorted()
    }

    /// q(w): the share of attempts admitted now, which wait `wait` seconds for a worker, whose
    /// caller stops waiting before the answer.
    func timeoutProbability(wait: Double) -> Double {
        guard let timeout else { return 0 }
        guard wait < timeout else { return 1 }
        return serviceTime.survival(atNanoseconds: (timeout - wait) * 1e9)
    }

    /// A(p): the mean attempts of a request each of whose attempts fails with probability `p`,
    /// (1 − pⁿ) / (1 − p), n at p = 1.
    func attemptsPerRequest(failing p: Double) -> Double {
        p >= 1 ? Double(maxAttempts) : (1 - pow(p, Double(maxAttempts))) / (1 - p)
    }

    /// The most work a replica holds at capacity factor `factor`: c + K, or with dropped
    /// expired work, the backlog whose wait is T if that is less. Whether it is the dropping bound.
    func workLimit(factor: Double) -> (limit: Double, drops: Bool) {
        let c = Double(workers)
        let places = Double(queueLimit)
        guard dropsExpired, let timeout else { return (c + places, false) }
        let expiring = timeout * c * factor / meanService
        return expiring < places ? (c + expiring, true) : (c + places, false)
    }
}
