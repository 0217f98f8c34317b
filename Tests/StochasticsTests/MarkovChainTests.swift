import Foundation
import Testing

@testable import Stochastics

/// The Gauss–Seidel solver against chains whose stationary distributions are known exactly.
@Suite struct MarkovChainTests {
    /// A birth–death chain of n states, up at λ and down at μ: π(k) = (1 − r) r^k / (1 − r^n),
    /// r = λ/μ. The solver's relative residual of 1e-12 bounds the error in flow, not in ratio:
    /// each π(k) lies within 1e-9 of it (the states far out have little mass and a larger
    /// relative error, measured up to 1e-2 at π ≈ 1e-14).
    @Test(arguments: [(0.7, 1.0, 5), (0.7, 1.0, 1_000), (3.0, 2.0, 40)])
    func aBirthDeathChainIsGeometric(up: Double, down: Double, states: Int) throws {
        var chain = MarkovChain(stateCount: states)
        for k in 0..<(states - 1) {
            chain.addTransition(from: k, to: k + 1, rate: up)
            chain.addTransition(from: k + 1, to: k, rate: down)
        }
        let solution = try chain.stationaryDistribution()
        let r = up / down
        let first = (1 - r) / (1 - pow(r, Double(states)))
        for (k, p) in solution.probabilities.enumerated() {
            let exact = first * pow(r, Double(k))
            #expect(abs(p - exact) <= 1e-9, "n = \(states), π(\(k)) = \(p), exact \(exact)")
        }
        #expect(solution.residual <= 1e-12)
    }

    /// A three-state cycle 0 → 1 → 2 → 0 with a shortcut 0 → 2, a rate given twice (they add) and
    /// a self-loop (ignored), balanced by hand below.
    @Test func aCycleWithAShortcutBalances() throws {
        var chain = MarkovChain(stateCount: 3)
        chain.addTransition(from: 0, to: 1, rate: 1)
        chain.addTransition(from: 1, to: 2, rate: 2)
        chain.addTransition(from: 2, to: 0, rate: 1.5)
        chain.addTransition(from: 2, to: 0, rate: 1.5)  // repeated: the rates add to 3
        chain.addTransition(from: 0, to: 2, rate: 4)
        chain.addTransition(from: 1, to: 1, rate: 9)  // a self-loop changes nothing
        // State 1: π1 · 2 = π0 · 1; state 2: π2 · 3 = π1 · 2 + π0 · 4, so with π0 = 1:
        // π1 = 1/2, π2 = (1 + 4)/3 = 5/3, total 19/6.
        let pi = try chain.stationaryDistribution().probabilities
        let exact = [6.0 / 19, 3.0 / 19, 10.0 / 19]
        for k in 0..<3 { #expect(abs(pi[k] - exact[k]) < 1e-11, "π(\(k)) = \(pi[k]), exact \(exact[k])") }
    }

    /// A state without a way out makes the chain reducible: an error naming it, not an answer.
    @Test func aTrappingStateIsAnError() {
        var chain = MarkovChain(stateCount: 3)
        chain.addTransition(from: 0, to: 1, rate: 1)
        chain.addTransition(from: 1, to: 0, rate: 1)
        chain.addTransition(from: 1, to: 2, rate: 1)
        #expect(throws: StochasticsError.notIrreducible(trappedState: 2)) { try chain.stationaryDistribution() }
    }

    /// A budget of sweeps too small to reach the tolerance is an error, not a half-converged π:
    /// a walk on 200 states drifting down, started uniform, is far from its geometric π after 10.
    @Test func aBudgetTooSmallIsAnError() {
        var chain = MarkovChain(stateCount: 200)
        for k in 0..<199 {
            chain.addTransition(from: k, to: k + 1, rate: 1)
            chain.addTransition(from: k + 1, to: k, rate: 2)
        }
        #expect {
            try chain.stationaryDistribution(maximumSweeps: 10)
        } throws: { error in
            if case .notConverged(let sweeps, let residual) = error as? StochasticsError {
                return sweeps == 10 && residual > 1e-12
            }
            return false
        }
    }

    /// Two independent birth–death walks, one across levels (up at 0.95, down at 1, 60 levels) and
    /// one within each block (up at 2, down at 3, 8 states): π(i, j) is the product of two
    /// truncated geometric laws. The walk across levels is the slow one, as a retrial queue's
    /// retrying population is. Solved with its levels given, the answer is the same to 1e-9, and
    /// the sweeps are fewer than without them (measured: 68 against 6,128; the count is
    /// deterministic, so "fewer" cannot be luck).
    @Test func levelsGiveTheSameAnswerInFewerSweeps() throws {
        let (levels, blockSize) = (60, 8)
        func chain(levelled: Bool) -> MarkovChain {
            var chain = MarkovChain(
                stateCount: levels * blockSize, blockSize: blockSize,
                levels: levelled ? Array(0..<levels) : nil)
            for level in 0..<levels {
                for j in 0..<blockSize {
                    let state = level * blockSize + j
                    if level + 1 < levels {
                        chain.addTransition(from: state, to: state + blockSize, rate: 0.95)
                        chain.addTransition(from: state + blockSize, to: state, rate: 1)
                    }
                    if j + 1 < blockSize {
                        chain.addTransition(from: state, to: state + 1, rate: 2)
                        chain.addTransition(from: state + 1, to: state, rate: 3)
                    }
                }
            }
            return chain
        }
        func geometric(_ r: Double, _ n: Int) -> [Double] {
            let first = (1 - r) / (1 - pow(r, Double(n)))
            return (0..<n).map { first * pow(r, Double($0)) }
        }
        let (across, within) = (geometric(0.95, levels), geometric(2.0 / 3, blockSize))
        let plain = try chain(levelled: false).stationaryDistribution()
        let levelled = try chain(levelled: true).stationaryDistribution()
        for level in 0..<levels {
            for j in 0..<blockSize {
                let exact = across[level] * within[j]
                let p = levelled.probabilities[level * blockSize + j]
                #expect(abs(p - exact) <= 1e-9, "π(\(level), \(j)) = \(p), exact \(exact)")
            }
        }
        #expect(levelled.residual <= 1e-12)
        #expect(
            levelled.iterations < plain.iterations,
            "levelled: \(levelled.iterations) sweeps, plain: \(plain.iterations)")
    }
}
