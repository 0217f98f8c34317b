import Stochastics
import Testing

/// GSL's Nelder-Mead simplex, behind `tune`'s refinement.
@Suite struct SimplexMinimizerTests {
    /// A shifted quadratic bowl: the minimum (1, -2) to within the tolerance asked.
    @Test func findsTheMinimumOfABowl() throws {
        let result = try SimplexMinimizer.minimize(
            start: [0, 0], step: [0.5, 0.5], tolerance: 1e-6, maxIterations: 500
        ) { x in
            (x[0] - 1) * (x[0] - 1) + 3 * (x[1] + 2) * (x[1] + 2)
        }
        #expect(abs(result.x[0] - 1) < 1e-3 && abs(result.x[1] + 2) < 1e-3 && result.value < 1e-5, "\(result.x)")
        #expect(result.evaluations > 10)
    }
}
