/// Latin hypercube designs: n points in the unit cube, each coordinate taking every one of the n
/// strata [i/n, (i+1)/n) exactly once (McKay, Beckman and Conover, 1979).
public enum LatinHypercube {
    /// One coordinate of a design of `count` points: a random permutation of the strata (a
    /// Fisher-Yates shuffle), with a uniform position in each. Draws 2·count − 1 uniforms.
    public static func column(_ count: Int, using random: RandomGenerator) -> [Double] {
        precondition(count >= 1, "a design has at least one point")
        var strata = Array(0..<count)
        for i in stride(from: count - 1, to: 0, by: -1) {
            let j = Int(random.uniform() * Double(i + 1))
            strata.swapAt(i, min(j, i))
        }
        return strata.map { (Double($0) + random.uniform()) / Double(count) }
    }

    /// A design of `count` points in `dimensions` coordinates: `design[point][coordinate]`, the
    /// coordinates' columns drawn one after the other.
    public static func design(points count: Int, dimensions: Int, using random: RandomGenerator) -> [[Double]] {
        let columns = (0..<dimensions).map { _ in column(count, using: random) }
        return (0..<count).map { point in columns.map { $0[point] } }
    }
}
