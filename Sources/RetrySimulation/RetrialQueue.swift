import Foundation
import Stochastics

/// The capacity server under retries with memoryless waits, as a continuous-time Markov chain:
/// the multi-orbit retrial queue, solved exactly on a truncated state space.
///
/// Requests arrive as a Poisson stream of rate λ at c workers (exponential services of rate μ
/// each) in front of K waiting places. An attempt that finds all c + K places taken is rejected.
/// A request rejected at its attempt k waits, exponentially with rate θ_k (the retry stage k, the
/// retrial queues' "orbit" k), and tries again, up to n attempts; a request rejected at its n-th
/// attempt is lost. With `retriesUnlimited`, the last stage repeats: a request rejected from it
/// waits there again (the classic retrial queue, n = ∞).
///
/// The state is (q, o_1, …, o_S): requests at the server and requests waiting in each retry
/// stage. The stages are truncated at Σ o_k ≤ N: a rejection that would pass it loses its
/// request. A queue longer than M is truncated at M places: an attempt that finds them taken is
/// rejected as by a full queue, so the chain stays irreducible. The ``Solution`` reports the stationary
/// probability of the states on that boundary; it bounds the truncation's error, and
/// ``solve(boundaryMass:maximumStates:)`` doubles N and M until it is below the bound.
public struct RetrialQueue: Hashable, Sendable {
    /// λ, new requests a second.
    public let arrivalRate: Double
    /// μ, services a second of each worker.
    public let serviceRate: Double
    /// c, the workers.
    public let workers: Int
    /// K, the places for attempts waiting for a worker; `nil`: unbounded.
    public let queueLimit: Int?
    /// θ_k for the retry stages k = 1 … n − 1: one over the mean wait before retry k.
    public let retryRates: [Double]
    /// Whether a request rejected from the last stage waits there again instead of being lost.
    public let retriesUnlimited: Bool

    /// A queue of finite positive rates and 1 to 10^6 workers; `nil` otherwise, or when
    /// `retriesUnlimited` has no stage to repeat.
    public init?(
        arrivalRate: Double, serviceRate: Double, workers: Int, queueLimit: Int?, retryRates: [Double],
        retriesUnlimited: Bool = false
    ) {
        guard arrivalRate > 0, arrivalRate.isFinite, serviceRate > 0, serviceRate.isFinite,
            (1...1_000_000).contains(workers), (queueLimit ?? 0) >= 0,
            retryRates.allSatisfy({ $0 > 0 && $0.isFinite }), retryRates.count <= Self.maximumStages,
            !retriesUnlimited || !retryRates.isEmpty
        else { return nil }
        (self.arrivalRate, self.serviceRate, self.workers, self.queueLimit) =
            (arrivalRate, serviceRate, workers, queueLimit)
        (self.retryRates, self.retriesUnlimited) = (retryRates, retriesUnlimited)
    }

    /// The relative residual the chain is solved to (see `MarkovChain`): 1e-13 keeps the closed
    /// forms' special cases within 1e-9 of the chain, where 1e-12 left the slowest-mixing of
    /// them (the M/M/1 retrial queue at ρ = 0.9) 1.3e-9 away.
    public static let residualTolerance = 1e-14

    /// The relative residual a truncation expected to fall short is solved to: enough to measure
    /// its boundary's mass and to start the next.
    public static let roughTolerance = 1e-9

    /// The most retry stages the chain holds (each multiplies its states).
    public static let maximumStages = 12

    /// ρ = λ / (c μ), the load of new requests alone.
    public var offeredLoad: Double { arrivalRate / (Double(workers) * serviceRate) }

    /// The stationary answer on the truncation whose boundary holds less than `boundaryMass` of
    /// the probability: N starts at 8 and M at 16, and each grows while its own boundary holds
    /// half the bound or more: M doubles, N goes where its boundary's decay so far takes it to a
    /// quarter of the bound (see `nextTruncation(after:and:aiming:)`), at most doubling. A
    /// truncation expected to fall short is solved to ``roughTolerance`` only; the answer is
    /// always solved to ``residualTolerance``. Throws `StochasticsError` when the solver fails,
    /// and ``TruncationError`` when the states needed pass `maximumStates`.
    public func solve(boundaryMass: Double = 1e-9, maximumStates: Int = 4_000_000) throws -> Solution {
        var (truncation, queueTruncation) = (8, 16)
        var previous: (space: StateSpace, solution: Solution)?
        var lastStageBoundary: (truncation: Int, mass: Double)?
        var expectsLast = false
        while true {
            guard
                let space = StateSpace(queue: self, truncation: truncation, queueTruncation: queueTruncation),
                space.count <= maximumStates
            else { throw TruncationError(truncation: truncation, maximumStates: maximumStates) }
            // A truncation expected to fall short only measures its boundary and starts the next:
            // it is solved roughly, and again to the full tolerance if it turns out to suffice.
            let chain = space.chain(self)
            var solution = try solve(
                chain, space, from: previous, tolerance: expectsLast ? Self.residualTolerance : Self.roughTolerance)
            if solution.boundaryMass < boundaryMass && !expectsLast {
                solution = try solve(chain, space, from: (space, solution), tolerance: Self.residualTolerance)
            }
            previous = (space, solution)
            if solution.boundaryMass < boundaryMass { return solution }
            guard truncation < 1 << 24, queueTruncation < 1 << 24 else {
                throw TruncationError(truncation: truncation, maximumStates: maximumStates)
            }
            // The next truncation is expected to be the last when N goes where the decay says
            // (not capped at 2 N) and M stays.
            expectsLast = solution.queueBoundaryMass < boundaryMass / 2
            if solution.stageBoundaryMass >= boundaryMass / 2 {
                let next = Self.nextTruncation(
                    after: (truncation, solution.stageBoundaryMass), and: lastStageBoundary, aiming: boundaryMass / 4)
                lastStageBoundary = (truncation, solution.stageBoundaryMass)
                expectsLast = expectsLast && next < 2 * truncation
                truncation = next
            }
            if solution.queueBoundaryMass >= boundaryMass / 2 { queueTruncation *= 2 }
        }
    }

    /// The N after a truncation whose stage boundary held `current.mass`: where the boundary's
    /// decay since the one before (`previous`), taken as geometric, brings it to `aim`, between
    /// 1.125 N and 2 N; 2 N without a decay measured. The tail of the retrying population
    /// decays at least geometrically (faster as N grows), so the estimate errs towards a larger
    /// N, and a short one costs one more solve.
    static func nextTruncation(
        after current: (truncation: Int, mass: Double), and previous: (truncation: Int, mass: Double)?,
        aiming aim: Double
    ) -> Int {
        let (smallest, largest) = (current.truncation + Swift.max(1, current.truncation / 8), 2 * current.truncation)
        guard let previous, previous.mass > current.mass, current.mass > 0 else { return largest }
        let decay = log(current.mass / previous.mass) / Double(current.truncation - previous.truncation)
        let steps = (log(aim / current.mass) / decay).rounded(.up)
        guard steps.isFinite else { return largest }
        return Swift.min(largest, Swift.max(smallest, current.truncation + Int(steps)))
    }

    /// The stationary answer on the truncation at N = `truncation` (and M = `queueTruncation`,
    /// N by default) as it is, boundary mass reported.
    public func solve(truncation: Int, queueTruncation: Int? = nil) throws -> Solution {
        guard
            let space = StateSpace(queue: self, truncation: truncation, queueTruncation: queueTruncation ?? truncation)
        else { throw TruncationError(truncation: truncation, maximumStates: Int(Int32.max)) }
        return try solve(space)
    }

    /// The states the truncation at N and M would take (`nil`: more than 2^31 − 1).
    public func stateCount(truncation: Int, queueTruncation: Int) -> Int? {
        StateSpace(queue: self, truncation: truncation, queueTruncation: queueTruncation)?.count
    }

    /// The solution on `space`, its sweeps started from `previous` (a smaller truncation's) when given.
    private func solve(_ space: StateSpace, from previous: (space: StateSpace, solution: Solution)? = nil) throws
        -> Solution
    {
        try solve(space.chain(self), space, from: previous, tolerance: Self.residualTolerance)
    }

    /// The solution of `chain`, the chain of `space`, to `tolerance`, its sweeps started from
    /// `previous` (a solution on this space or a smaller one) when given.
    private func solve(
        _ chain: MarkovChain, _ space: StateSpace, from previous: (space: StateSpace, solution: Solution)?,
        tolerance: Double
    ) throws -> Solution {
        let start = previous.map { space.spread($0.solution.probabilities, from: $0.space) }
        let stationary = try chain.stationaryDistribution(tolerance: tolerance, start: start)
        return Solution(queue: self, space: space, stationary: stationary)
    }

    /// The truncation needed more states than allowed.
    public struct TruncationError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The N the last try asked for.
        public let truncation: Int
        public let maximumStates: Int

        public var description: String {
            "the retrial queue's boundary still held too much probability with more than \(maximumStates) states "
                + "(truncation N = \(truncation))"
        }
    }
}
