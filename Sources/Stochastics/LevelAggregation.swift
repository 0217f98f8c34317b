/// Aggregation and disaggregation over a chain's levels, which speeds up its block Gauss–Seidel
/// sweeps where they are slow: a chain whose states fall into levels 0 … L, every transition
/// staying in its level or moving to a neighbouring one (a quasi-birth–death chain, such as a
/// retrial queue levelled by the requests waiting to retry).
///
/// Gauss–Seidel corrects π locally; mass moves between far-apart levels a level a sweep, so a
/// chain that mixes slowly across its levels takes hundreds of sweeps. Between batches of
/// sweeps, an aggregation step solves the chain of the levels themselves, with the rates between
/// levels that π's current shape within each level gives, and rescales each level to its answer
/// (iterative aggregation–disaggregation: Koury, McAllister and Stewart 1984; Stewart,
/// *Introduction to the Numerical Solution of Markov Chains*, 1994, §6.3). The levels' chain is
/// a birth–death chain, solved exactly by ξ(l + 1) C(l + 1, l) = ξ(l) C(l, l + 1), with
/// C(l, l ± 1) the flow from level l to l ± 1 over π's mass in l. At the stationary π the
/// rescaling changes nothing, so the answer is the same; only the way there is shorter.
struct LevelAggregation {
    /// The level of each state.
    let levels: [Int32]
    let levelCount: Int

    /// The levels of states in blocks of `blockSize`, given each block's (from 0 to 2^31 − 1);
    /// `nil` when there are none.
    init?(blockLevels: [Int], blockSize: Int) {
        guard let highest = blockLevels.max() else { return nil }
        levels = blockLevels.flatMap { repeatElement(Int32($0), count: blockSize) }
        levelCount = highest + 1
    }

    /// π's mass in each level and its flows from each level to the one above and the one below,
    /// as `BalanceEquations.relativeResidual(_:levels:)` measures them.
    struct Flows {
        var mass: [Double]
        var up: [Double]
        var down: [Double]

        init(levelCount: Int) {
            mass = [Double](repeating: 0, count: levelCount)
            (up, down) = (mass, mass)
        }

        mutating func withUnsafeMutableBuffers(
            _ body: (
                UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>,
                UnsafeMutableBufferPointer<Double>
            ) -> Void
        ) {
            mass.withUnsafeMutableBufferPointer { mass in
                up.withUnsafeMutableBufferPointer { up in
                    down.withUnsafeMutableBufferPointer { down in body(mass, up, down) }
                }
            }
        }
    }

    /// Rescales each level of `pi` to the levels' chain's answer, keeping π's total, from `flows`
    /// measured on this very `pi`. The levels from the first one that holds no mass or that no
    /// flow reaches (a start that has not reached it yet) keep their values.
    func rescale(_ pi: inout [Double], by flows: Flows) {
        let (mass, up, down) = (flows.mass, flows.up, flows.down)
        // ξ(l + 1) / ξ(l) = (up(l) / mass(l)) / (down(l + 1) / mass(l + 1)), from level 0 up to
        // the first level not reached.
        var xi = [Double](repeating: 0, count: levelCount)
        xi[0] = 1
        var reached = 1
        while reached < levelCount {
            let (below, here) = (reached - 1, reached)
            guard mass[below] > 0, mass[here] > 0, up[below] > 0, down[here] > 0 else { break }
            let ratio = xi[below] * (up[below] / mass[below]) / (down[here] / mass[here])
            guard ratio.isNormal else { break }
            xi[here] = ratio
            reached += 1
        }
        guard reached > 1, mass[0] > 0 else { return }
        let scale = mass[0..<reached].reduce(0, +) / xi[0..<reached].reduce(0, +)
        let factors = (0..<levelCount).map { $0 < reached ? xi[$0] * scale / mass[$0] : 1 }
        levels.withUnsafeBufferPointer { levels in
            pi.withUnsafeMutableBufferPointer { pi in
                for j in pi.indices { pi[j] *= factors[Int(levels[j])] }
            }
        }
    }
}
