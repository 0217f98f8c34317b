import Stochastics
import Testing

/// The design `tune` starts from.
@Suite struct LatinHypercubeTests {
    /// Every coordinate takes each of the n strata [i/n, (i+1)/n) exactly once, for several seeds.
    @Test(arguments: [1, 2, 20151, 0xDEAD_BEEF] as [UInt64]) func everyStratumOnceInEveryCoordinate(seed: UInt64)
        throws
    {
        let random = try RandomGenerator(seed: seed)
        let design = LatinHypercube.design(points: 37, dimensions: 4, using: random)
        #expect(design.count == 37 && design.allSatisfy { $0.count == 4 }, "seed \(seed)")
        for coordinate in 0..<4 {
            let strata = design.map { Int(($0[coordinate] * 37).rounded(.down)) }.sorted()
            #expect(strata == Array(0..<37), "seed \(seed), coordinate \(coordinate)")
        }
    }

    /// The same seed gives the same design, and the coordinates are not copies of one another.
    @Test func aSeedGivesOneDesign() throws {
        let first = LatinHypercube.design(points: 16, dimensions: 3, using: try RandomGenerator(seed: 7))
        let again = LatinHypercube.design(points: 16, dimensions: 3, using: try RandomGenerator(seed: 7))
        #expect(first == again)
        #expect(Set(first.map { [$0[0]] }) != Set(first.map { [$0[1]] }))
    }

    /// A column draws 2n - 1 uniforms: n - 1 for the shuffle, n for the positions.
    @Test func aColumnDrawsTwoNMinusOneUniforms() throws {
        let random = try RandomGenerator(seed: 11)
        _ = LatinHypercube.column(10, using: random)
        let reference = try RandomGenerator(seed: 11)
        for _ in 0..<19 { _ = reference.uniform() }
        #expect(random.uniform() == reference.uniform())
    }
}
