import Testing

@testable import BackoffPolicies

/// The numerical integration behind capped decorrelated jitter, against exact references.
@Suite struct DecorrelatedMomentsTests {
    func moments(_ iterator: DecorrelatedMoments, count: Int) -> [TotalWaitMoments] {
        var iterator = iterator
        return (0..<count).map { _ in iterator.next()! }
    }

    func relativeError(_ a: Double, _ b: Double) -> Double { abs(a - b) / max(abs(b), 1e-300) }

    /// With the cap above every reachable wait (b r^d <= c) the grid integrates polynomials of degree
    /// <= 2, which a 10-point Gauss-Legendre rule does exactly: only rounding remains.
    @Test func gridMatchesTheExactRecursionWhenTheCapCannotBind() {
        let (b, r, d) = (0.1, 3.0, 6)
        let cap = b * pow3(d) * 1.01
        let exact = moments(DecorrelatedMoments(base: b, cap: .infinity, factor: r), count: d)
        let grid = moments(DecorrelatedMoments(base: b, cap: cap, factor: r), count: d)
        for k in 0..<d {
            #expect(relativeError(grid[k].mean, exact[k].mean) < 1e-11, "mean of \(k + 1) waits")
            #expect(relativeError(grid[k].variance, exact[k].variance) < 1e-9, "variance of \(k + 1) waits")
        }
    }

    func pow3(_ d: Int) -> Double { (0..<d).reduce(1.0) { value, _ in value * 3 } }

    /// The uncapped mean has the closed form E[s_k] = μ* + (b - μ*)(r/2)^k, μ* = b / (2 - r).
    @Test(arguments: [3.0, 2.5, 1.5])
    func exactRecursionMatchesTheClosedFormMean(r: Double) {
        let b = 0.1
        let fixedPoint = b / (2 - r)
        var total = 0.0
        var ratio = 1.0
        for (k, m) in moments(DecorrelatedMoments(base: b, cap: .infinity, factor: r), count: 12).enumerated() {
            ratio *= r / 2
            total += fixedPoint + (b - fixedPoint) * ratio
            #expect(relativeError(m.mean, total) < 1e-13, "r = \(r), \(k + 1) waits")
        }
    }

    /// One wait with a binding cap (c < r b): E[s] = ((c² - b²)/2 + c (rb - c)) / (rb - b) and
    /// E[s²] = ((c³ - b³)/3 + c² (rb - c)) / (rb - b).
    @Test func singleCappedWaitMatchesTheAnalyticMoments() {
        let (b, r, c) = (0.1, 3.0, 0.2)
        let span = r * b - b
        let mean = ((c * c - b * b) / 2 + c * (r * b - c)) / span
        let second = ((c * c * c - b * b * b) / 3 + c * c * (r * b - c)) / span
        let grid = moments(DecorrelatedMoments(base: b, cap: c, factor: r), count: 1)[0]
        #expect(relativeError(grid.mean, mean) < 1e-12)
        #expect(relativeError(grid.variance, second - mean * mean) < 1e-9)
    }

    /// Doubling the panels and raising the rule's order changes nothing beyond 1e-9 relative,
    /// so the default resolution is well inside the 1e-6 the closed form promises.
    @Test func resolutionHasConverged() {
        let (b, r, c) = (0.1, 3.0, 1.0)
        let standard = moments(DecorrelatedMoments(base: b, cap: c, factor: r), count: 30)
        let fine = moments(DecorrelatedMoments(base: b, cap: c, factor: r, panels: 64, points: 14), count: 30)
        for k in [0, 4, 9, 29] {
            #expect(relativeError(standard[k].mean, fine[k].mean) < 1e-9, "mean of \(k + 1) waits")
            #expect(relativeError(standard[k].variance, fine[k].variance) < 1e-9, "variance of \(k + 1) waits")
        }
    }

    @Test func capEqualToBaseMakesEveryWaitTheBase() throws {
        let policy = try BackoffPolicy(
            base: .milliseconds(100), cap: .milliseconds(100), jitter: .decorrelated(), budget: .maxAttempts(6))
        #expect(policy.totalWaitMoments == TotalWaitMoments(mean: 0.5, variance: 0))
    }
}
