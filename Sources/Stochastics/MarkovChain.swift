/// A continuous-time Markov chain on the states `0 ..< stateCount`, given by its transition rates,
/// and its stationary distribution, solved by block Gauss–Seidel iteration.
///
/// The stationary distribution π solves π Q = 0 with Σ π = 1, where Q holds the rates
/// q(i, j) off its diagonal and minus each state's total rate out, q(j), on it. The chain must be
/// irreducible on its states (every state reachable from every other), as a truncated queue is.
///
/// The states come in blocks of `blockSize` consecutive states (a queue's levels: the same
/// retrying population, any number at the server). A sweep solves each block's balance equations
/// in turn, exactly for the moves between neighbours within the block (a tridiagonal system,
/// by the Thomas algorithm) and with the newest values for every other move into it, then
/// scales π to sum to 1: block Gauss–Seidel (Stewart, *Introduction to the Numerical Solution of
/// Markov Chains*, 1994, §3.3). Point Gauss–Seidel (blocks of 1) needs thousands of sweeps when
/// the moves within a level are fast against those between levels; the blocks take them in one.
/// A chain of a single block is solved by point Gauss–Seidel. The sweeps go forward and
/// backward in turn (symmetric Gauss–Seidel), so mass moves both ways along the blocks in each
/// pair of sweeps. A chain given levels (a queue's retrying population) is also aggregated over
/// them between batches of sweeps, which moves mass between far-apart levels at once (see
/// `LevelAggregation`). The answer is accepted when the relative residual of the balance
/// equations, max_j |Σ_i π(i) Q(i, j)| / max_j π(j) q(j), is at most the tolerance.
///
/// Both accelerations were measured on a retrial queue of 1,197,625 states (4 workers, 20
/// places, λ = 190 a second, 3 retry stages truncated at N = 64), started from the answer at
/// N = 32: to a residual of 1e-14 it took 490 sweeps forward only, 325 symmetric, and 80
/// symmetric with the aggregation.
///
/// GSL's sparse iterative solver is restarted GMRES without a preconditioner; on these chains
/// it stagnates (a 65-state retrial queue stayed at a relative residual of 0.036 through 2,000
/// restarts of GMRES(30)), so this solver does not use it.
public struct MarkovChain: Sendable {
    /// The number of states.
    public let stateCount: Int
    /// The states of a block, consecutive; `stateCount` is a multiple of it.
    public let blockSize: Int
    /// Each block's level, when the chain is levelled (see `init(stateCount:blockSize:levels:)`).
    public let levels: [Int]?
    private var sources: [Int32] = []
    private var targets: [Int32] = []
    private var rates: [Double] = []

    /// A chain of `stateCount` states (at least 1, at most `Int32.max`) in blocks of `blockSize`
    /// (a divisor of it; 1 by default) and no transitions yet.
    ///
    /// With `levels` (one per block, each from 0 to `Int32.max`), every transition must stay in
    /// its block's level or move to a neighbouring level, and the sweeps are accelerated by
    /// aggregating over the levels (see `LevelAggregation`): the answer is the same, sooner.
    public init(stateCount: Int, blockSize: Int = 1, levels: [Int]? = nil) {
        precondition((1...Int(Int32.max)).contains(stateCount), "a chain has 1 to 2^31 - 1 states")
        precondition(blockSize >= 1 && stateCount % blockSize == 0, "blocks divide the states")
        if let levels {
            precondition(levels.count == stateCount / blockSize, "one level a block")
            precondition(levels.allSatisfy { (0...Int(Int32.max)).contains($0) }, "levels are 0 to 2^31 - 1")
        }
        self.stateCount = stateCount
        self.blockSize = blockSize
        self.levels = levels
    }

    /// The number of transitions added (pairs may repeat: their rates add up).
    public var transitionCount: Int { rates.count }

    /// Adds the rate `rate` of going from `source` to `target`; a zero rate or a self-loop adds nothing.
    public mutating func addTransition(from source: Int, to target: Int, rate: Double) {
        precondition(rate >= 0 && rate.isFinite, "a transition rate is finite and at least 0")
        precondition(source >= 0 && source < stateCount && target >= 0 && target < stateCount)
        guard rate > 0, source != target else { return }
        if let levels {
            precondition(
                abs(levels[source / blockSize] - levels[target / blockSize]) <= 1,
                "a levelled chain's transitions move one level at most")
        }
        sources.append(Int32(source))
        targets.append(Int32(target))
        rates.append(rate)
    }

    /// Reserves room for `count` transitions.
    public mutating func reserveTransitions(_ count: Int) {
        sources.reserveCapacity(count)
        targets.reserveCapacity(count)
        rates.reserveCapacity(count)
    }

    /// The stationary distribution, accurate to `tolerance` in the relative residual above.
    ///
    /// Throws ``StochasticsError/notIrreducible(trappedState:)`` for a state with no way out, and
    /// ``StochasticsError/notConverged(sweeps:residual:)`` when `maximumSweeps` sweeps do not reach
    /// the tolerance (a chain that mixes too slowly for the budget, or is not irreducible).
    /// `start`, when given, is where the sweeps begin (a solution of a smaller truncation, spread
    /// over this chain's states; zeros allowed, not all of them): a start near π saves sweeps.
    public func stationaryDistribution(
        tolerance: Double = 1e-12, maximumSweeps: Int = 20_000, start: [Double]? = nil
    ) throws(StochasticsError)
        -> StationaryDistribution
    {
        precondition(tolerance > 0 && tolerance < 1, "the tolerance is in (0, 1)")
        let n = stateCount
        guard n > 1 else { return StationaryDistribution(probabilities: [1], residual: 0, iterations: 0) }
        let balance = BalanceEquations(
            stateCount: n, blockSize: blockSize == n ? 1 : blockSize, sources: sources, targets: targets,
            rates: rates)
        if let trapped = balance.outRate.firstIndex(of: 0) { throw .notIrreducible(trappedState: trapped) }
        // A chain of one block is solved state by state, so its level is no use.
        let aggregation =
            balance.blockSize == blockSize
            ? levels.flatMap { LevelAggregation(blockLevels: $0, blockSize: blockSize) } : nil
        var pi = [Double](repeating: 1 / Double(n), count: n)
        if let start, start.count == n, start.allSatisfy({ $0 >= 0 && $0.isFinite }) {
            let total = start.reduce(0, +)
            // States the start leaves at 0 get a little mass, so that none starts unreachable.
            if total > 0 { pi = start.map { ($0 / total + 1e-12 / Double(n)) } }
        }
        // Each round: measure π's residual (and its levels' flows), stop when it is small
        // enough, else rescale its levels and sweep, forward and backward in turn (symmetric
        // Gauss–Seidel: the mass moves both ways along the blocks at once).
        var sweeps = 0
        var residual = Double.infinity
        while true {
            let (measured, flows) = balance.relativeResidual(pi, levels: aggregation)
            residual = measured
            // A residual that is not a number is a block with no way out (a reducible chain).
            guard residual > tolerance, residual.isFinite, sweeps < maximumSweeps else { break }
            if let aggregation, let flows { aggregation.rescale(&pi, by: flows) }
            for sweep in 0..<Swift.min(Self.sweepsBetweenChecks, maximumSweeps - sweeps) {
                balance.sweep(&pi, backward: sweep % 2 == 1)
                sweeps += 1
            }
        }
        guard residual <= tolerance else { throw .notConverged(sweeps: sweeps, residual: residual) }
        let total = pi.reduce(0, +)
        return StationaryDistribution(
            probabilities: pi.map { Swift.max(0, $0 / total) }, residual: residual, iterations: sweeps)
    }

    /// Sweeps between two residual checks (a check, with the levels' flows, costs about a sweep).
    static let sweepsBetweenChecks = 4
}

/// A chain's stationary distribution and how well it solves the balance equations.
public struct StationaryDistribution: Sendable {
    /// π, one probability per state, summing to 1.
    public let probabilities: [Double]
    /// The relative residual max_j |(π Q)(j)| / max_j π(j) q(j) of the answer.
    public let residual: Double
    /// The Gauss–Seidel sweeps it took.
    public let iterations: Int
}
