/// A Markov chain's balance equations, grouped by the state they balance: for each state j, its
/// rate out q(j), the rates in from its neighbours j − 1 and j + 1 in its block (the block's
/// tridiagonal part), and the other rates in, compressed by target (rows of Qᵀ).
struct BalanceEquations {
    let stateCount: Int
    let blockSize: Int
    /// q(j), the total rate out of each state.
    let outRate: [Double]
    /// q(j − 1, j) and q(j + 1, j) when j − 1, j + 1 are in j's block (0 otherwise).
    private let fromBelow: [Double]
    private let fromAbove: [Double]
    /// The Thomas algorithm's factors of each state's row within its block: q(j − 1, j), one
    /// over the pivot, and the pivot's multiple of the next state's value.
    private let elimination: [(lower: Double, inversePivot: Double, upper: Double)]
    /// `start[j] ..< start[j + 1]` index the other transitions into state j.
    let start: [Int]
    let sources: [Int32]
    let rates: [Double]

    init(stateCount: Int, blockSize: Int, sources: [Int32], targets: [Int32], rates: [Double]) {
        (self.stateCount, self.blockSize) = (stateCount, blockSize)
        var outRate = [Double](repeating: 0, count: stateCount)
        var fromBelow = [Double](repeating: 0, count: stateCount)
        var fromAbove = [Double](repeating: 0, count: stateCount)
        var start = [Int](repeating: 0, count: stateCount + 1)
        func inBlock(_ source: Int, _ target: Int) -> Bool {
            blockSize > 1 && source / blockSize == target / blockSize && abs(source - target) == 1
        }
        for index in rates.indices {
            let (source, target) = (Int(sources[index]), Int(targets[index]))
            outRate[source] += rates[index]
            if inBlock(source, target) {
                if source < target { fromBelow[target] += rates[index] } else { fromAbove[target] += rates[index] }
            } else {
                start[target + 1] += 1
            }
        }
        for state in 0..<stateCount { start[state + 1] += start[state] }
        var next = start
        var orderedSources = [Int32](repeating: 0, count: start[stateCount])
        var orderedRates = [Double](repeating: 0, count: start[stateCount])
        for index in rates.indices {
            let (source, target) = (Int(sources[index]), Int(targets[index]))
            guard !inBlock(source, target) else { continue }
            orderedSources[next[target]] = sources[index]
            orderedRates[next[target]] = rates[index]
            next[target] += 1
        }
        (self.outRate, self.fromBelow, self.fromAbove) = (outRate, fromBelow, fromAbove)
        var elimination = [(lower: Double, inversePivot: Double, upper: Double)]()
        elimination.reserveCapacity(stateCount)
        var previousUpper = 0.0
        for j in 0..<stateCount {
            if j % blockSize == 0 { previousUpper = 0 }
            let inversePivot = 1 / (outRate[j] - fromBelow[j] * previousUpper)
            previousUpper = fromAbove[j] * inversePivot
            elimination.append((fromBelow[j], inversePivot, previousUpper))
        }
        self.elimination = elimination
        (self.start, self.sources, self.rates) = (start, orderedSources, orderedRates)
    }

    /// One sweep: each block's states solved from the newest values of the others, then π scaled
    /// to sum to 1. Within a block, x(j) q(j) − x(j − 1) q(j − 1, j) − x(j + 1) q(j + 1, j) = f(j),
    /// the other inflow into j, solved by forward elimination and back substitution (the Thomas
    /// algorithm); the elimination's factors do not depend on π, so they are computed once.
    /// `backward` takes the blocks from the last to the first.
    func sweep(_ pi: inout [Double], backward: Bool = false) {
        var right = [Double](repeating: 0, count: blockSize)
        let (blockSize, stateCount) = (self.blockSize, self.stateCount)
        start.withUnsafeBufferPointer { start in
            sources.withUnsafeBufferPointer { sources in
                rates.withUnsafeBufferPointer { rates in
                    elimination.withUnsafeBufferPointer { elimination in
                        right.withUnsafeMutableBufferPointer { right in
                            pi.withUnsafeMutableBufferPointer { pi in
                                let lastFirst = stateCount - blockSize
                                for index in stride(from: 0, to: stateCount, by: blockSize) {
                                    let first = backward ? lastFirst - index : index
                                    var previous = 0.0
                                    for r in 0..<blockSize {
                                        let j = first + r
                                        var inflow = 0.0
                                        for entry in start[j]..<start[j + 1] {
                                            inflow += pi[Int(sources[entry])] * rates[entry]
                                        }
                                        let factors = elimination[j]
                                        previous = (inflow + factors.lower * previous) * factors.inversePivot
                                        right[r] = previous
                                    }
                                    var next = 0.0
                                    for r in stride(from: blockSize - 1, through: 0, by: -1) {
                                        next = right[r] + elimination[first + r].upper * next
                                        pi[first + r] = next
                                    }
                                }
                                var total = 0.0
                                for value in pi { total += value }
                                let scale = 1 / total
                                for index in pi.indices { pi[index] *= scale }
                            }
                        }
                    }
                }
            }
        }
    }

    /// max_j |Σ_i π(i) q(i, j) − π(j) q(j)| / max_j π(j) q(j); NaN when π holds a number that is
    /// not finite (a block solved with no way out of it). With `aggregation`, the same pass
    /// measures π's flows between its levels (see `LevelAggregation`).
    func relativeResidual(_ pi: [Double], levels aggregation: LevelAggregation? = nil) -> (
        residual: Double, flows: LevelAggregation.Flows?
    ) {
        var worst = 0.0
        var largestFlow = 0.0
        var flows = LevelAggregation.Flows(levelCount: aggregation?.levelCount ?? 0)
        let levels = aggregation?.levels ?? []
        let (stateCount, measuresFlows) = (self.stateCount, aggregation != nil)
        start.withUnsafeBufferPointer { start in
            sources.withUnsafeBufferPointer { sources in
                rates.withUnsafeBufferPointer { rates in
                    levels.withUnsafeBufferPointer { levels in
                        flows.withUnsafeMutableBuffers { mass, up, down in
                            pi.withUnsafeBufferPointer { pi in
                                for j in 0..<stateCount {
                                    var inflow = 0.0
                                    if measuresFlows {
                                        // Every move between levels is one of these: a block's
                                        // neighbours share its level.
                                        let level = levels[j]
                                        mass[Int(level)] += pi[j]
                                        for entry in start[j]..<start[j + 1] {
                                            let source = Int(sources[entry])
                                            let flow = pi[source] * rates[entry]
                                            inflow += flow
                                            let from = levels[source]
                                            if from < level {
                                                up[Int(from)] += flow
                                            } else if from > level {
                                                down[Int(from)] += flow
                                            }
                                        }
                                    } else {
                                        for entry in start[j]..<start[j + 1] {
                                            inflow += pi[Int(sources[entry])] * rates[entry]
                                        }
                                    }
                                    if fromBelow[j] > 0 { inflow += pi[j - 1] * fromBelow[j] }
                                    if fromAbove[j] > 0 { inflow += pi[j + 1] * fromAbove[j] }
                                    let outflow = pi[j] * outRate[j]
                                    guard inflow.isFinite && outflow.isFinite else {
                                        worst = .nan
                                        return
                                    }
                                    worst = Swift.max(worst, abs(inflow - outflow))
                                    largestFlow = Swift.max(largestFlow, outflow)
                                }
                            }
                        }
                    }
                }
            }
        }
        guard !worst.isNaN else { return (.nan, nil) }
        return (largestFlow > 0 ? worst / largestFlow : .infinity, aggregation == nil ? nil : flows)
    }
}
