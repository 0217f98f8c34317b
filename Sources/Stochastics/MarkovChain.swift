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
/// A chain of a single block is solved by point Gauss–Seidel. The answer is accepted when the
/// relative residual of the balance equations, max_j |Σ_i π(i) Q(i, j)| / max_j π(j) q(j), is
/// at most the tolerance.
///
/// GSL's sparse iterative solver is restarted GMRES without a preconditioner; on these chains
/// it stagnates (a 65-state retrial queue stayed at a relative residual of 0.036 through 2,000
/// restarts of GMRES(30)), so this solver does not use it.
public struct MarkovChain: Sendable {
    /// The number of states.
    public let stateCount: Int
    /// The states of a block, consecutive; `stateCount` is a multiple of it.
    public let blockSize: Int
    private var sources: [Int32] = []
    private var targets: [Int32] = []
    private var rates: [Double] = []

    /// A chain of `stateCount` states (at least 1, at most `Int32.max`) in blocks of `blockSize`
    /// (a divisor of it; 1 by default) and no transitions yet.
    public init(stateCount: Int, blockSize: Int = 1) {
        precondition((1...Int(Int32.max)).contains(stateCount), "a chain has 1 to 2^31 - 1 states")
        precondition(blockSize >= 1 && stateCount % blockSize == 0, "blocks divide the states")
        self.stateCount = stateCount
        self.blockSize = blockSize
    }

    /// The number of transitions added (pairs may repeat: their rates add up).
    public var transitionCount: Int { rates.count }

    /// Adds the rate `rate` of going from `source` to `target`; a zero rate or a self-loop adds nothing.
    public mutating func addTransition(from source: Int, to target: Int, rate: Double) {
        precondition(rate >= 0 && rate.isFinite, "a transition rate is finite and at least 0")
        precondition(source >= 0 && source < stateCount && target >= 0 && target < stateCount)
        guard rate > 0, source != target else { return }
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
        var pi = [Double](repeating: 1 / Double(n), count: n)
        if let start, start.count == n, start.allSatisfy({ $0 >= 0 && $0.isFinite }) {
            let total = start.reduce(0, +)
            // States the start leaves at 0 get a little mass, so that none starts unreachable.
            if total > 0 { pi = start.map { ($0 / total + 1e-12 / Double(n)) } }
        }
        var sweeps = 0
        var residual = Double.infinity
        while sweeps < maximumSweeps {
            let batch = Swift.min(Self.sweepsBetweenChecks, maximumSweeps - sweeps)
            for _ in 0..<batch { balance.sweep(&pi) }
            sweeps += batch
            residual = balance.relativeResidual(pi)
            // A residual that is not a number is a block with no way out (a reducible chain).
            if residual <= tolerance || !residual.isFinite { break }
        }
        guard residual <= tolerance else { throw .notConverged(sweeps: sweeps, residual: residual) }
        let total = pi.reduce(0, +)
        return StationaryDistribution(
            probabilities: pi.map { Swift.max(0, $0 / total) }, residual: residual, iterations: sweeps)
    }

    /// Sweeps between two residual checks (a check costs about a sweep).
    static let sweepsBetweenChecks = 5
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
