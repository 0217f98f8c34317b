import Foundation

/// The Erlang-A queue (M/M/c+M) in closed form: Poisson arrivals at rate λ, c workers serving at
/// rate μ each (exponential times), an unbounded FIFO queue, and callers whose patience is
/// exponential with rate θ, whose work is dropped unserved if it has not started before the
/// patience ends (a capacity server that ``CapacityModel/dropsExpired``, clients with one attempt
/// and an exponential patience of mean 1/θ: `simulate --patience`). Palm (1943); Garnett,
/// Mandelbaum and Reiman (2002), "Designing a call center with impatient customers".
///
/// The number in the system is a birth-death chain: births at λ, deaths at nμ for n ≤ c and at
/// cμ + (n − c)θ beyond, so π_n ∝ Π_(k ≤ n) λ / d_k. Callers leave the queue at rate θ each, so
///
/// ```
/// P(dropped) = θ E[(N − c)⁺] / λ
/// ```
///
/// The simulator drops an expired attempt only when a worker reaches it, not when its caller
/// leaves, but a dropped attempt takes no work, so every caller meets the same wait and the shares
/// are Erlang-A's. A caller served may still leave during its service (its patience covers the
/// whole attempt): by memorylessness that is θ/(θ + μ) of those served, answered late (wasted
/// work). Stable for any load. Checked against the simulator in `ErlangAQueueTests`.
public struct ErlangAQueue: Hashable, Sendable {
    /// λ, arrivals a second.
    public let arrivalRate: Double
    /// μ, services a second per worker (one over the mean service time).
    public let serviceRate: Double
    /// θ, abandonments a second per waiting caller (one over the mean patience).
    public let patienceRate: Double
    /// c, the workers.
    public let workers: Int
    /// P(dropped): the share of arrivals whose patience ends before a worker takes them.
    public let droppedFraction: Double
    /// The share of arrivals that find every worker busy.
    public let delayedFraction: Double

    /// The most terms of π the sum takes: a patience so long against an overload that its queue
    /// would stand beyond 100 million callers has no value here.
    static let mostTerms = 100_000_000

    /// A queue of finite positive rates and at least one worker (at most a million); `nil` otherwise,
    /// or when π would need more than 100 million terms (`mostTerms`).
    public init?(arrivalRate: Double, serviceRate: Double, patienceRate: Double, workers: Int) {
        guard arrivalRate > 0, arrivalRate.isFinite, serviceRate > 0, serviceRate.isFinite, patienceRate > 0,
            patienceRate.isFinite, (1...1_000_000).contains(workers)
        else { return nil }
        self.arrivalRate = arrivalRate
        self.serviceRate = serviceRate
        self.patienceRate = patienceRate
        self.workers = workers
        // log π_n, in logarithms so that (λ/μ)^n / n! of a large system does not overflow: a first
        // pass finds the largest and where the terms have fallen 60 nats below it (e^-60 ≈ 1e-26),
        // a second sums them scaled by the largest.
        func death(_ n: Int) -> Double {
            n <= workers ? Double(n) * serviceRate : Double(workers) * serviceRate + Double(n - workers) * patienceRate
        }
        let logArrival = log(arrivalRate)
        var (term, largest, last) = (0.0, 0.0, 0)
        while true {
            last += 1
            guard last <= Self.mostTerms else { return nil }
            let next = term + logArrival - log(death(last))
            largest = max(largest, next)
            if last > workers && next < largest - 60 && next < term { break }
            term = next
        }
        var (total, waiting, delayed) = (0.0, 0.0, 0.0)
        term = 0
        for count in 0...last {
            if count > 0 { term += logArrival - log(death(count)) }
            let weight = exp(term - largest)
            total += weight
            if count >= workers { delayed += weight }
            if count > workers { waiting += Double(count - workers) * weight }
        }
        droppedFraction = patienceRate * waiting / total / arrivalRate
        delayedFraction = delayed / total
    }

    /// The share of arrivals a worker takes: 1 − P(dropped).
    public var servedFraction: Double { 1 - droppedFraction }

    /// The share served and answered in time: the patience outlasts the service, μ/(θ + μ) of them.
    public var answeredFraction: Double { servedFraction * serviceRate / (patienceRate + serviceRate) }

    /// The share served but answered after the caller left (wasted work): θ/(θ + μ) of those served.
    public var lateFraction: Double { servedFraction * patienceRate / (patienceRate + serviceRate) }
}
