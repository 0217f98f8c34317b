import Foundation

/// Gauss-Legendre quadrature on [-1, 1]: ∫ f ≈ Σ w_i f(x_i), exact for polynomials of degree < 2p.
///
/// Nodes are found by Newton's iteration on the Legendre polynomial P_p from the Chebyshev-like
/// start x ≈ cos(π (i + 3/4) / (p + 1/2)) (Abramowitz & Stegun 25.4.29; Numerical Recipes §4.6).
package struct GaussLegendre {
    package let nodes: [Double]
    package let weights: [Double]
    /// Barycentric weights of the nodes, for Lagrange interpolation through them.
    let barycentricWeights: [Double]

    package init(points p: Int) {
        precondition(p >= 1, "Gauss-Legendre needs at least one node")
        var nodes = [Double](repeating: 0, count: p)
        var weights = [Double](repeating: 0, count: p)
        for i in 0..<p {
            var x = cos(Double.pi * (Double(i) + 0.75) / (Double(p) + 0.5))
            var derivative = 0.0
            for _ in 0..<100 {
                var current = 1.0
                var previous = 0.0
                for j in 1...p {
                    let older = previous
                    previous = current
                    current = ((2 * Double(j) - 1) * x * previous - (Double(j) - 1) * older) / Double(j)
                }
                derivative = Double(p) * (x * current - previous) / (x * x - 1)
                let step = current / derivative
                x -= step
                if abs(step) < 1e-16 { break }
            }
            nodes[p - 1 - i] = x
            weights[p - 1 - i] = 2 / ((1 - x * x) * derivative * derivative)
        }
        self.nodes = nodes
        self.weights = weights
        barycentricWeights = (0..<p).map { j in
            1 / (0..<p).filter { $0 != j }.reduce(1.0) { $0 * (nodes[j] - nodes[$1]) }
        }
    }

    /// The Lagrange basis L_j(t) of the nodes, at a point t of the reference interval.
    func lagrangeBasis(at t: Double) -> [Double] {
        if let exact = nodes.firstIndex(of: t) {
            return nodes.indices.map { $0 == exact ? 1 : 0 }
        }
        let terms = nodes.indices.map { barycentricWeights[$0] / (t - nodes[$0]) }
        let total = terms.reduce(0, +)
        return terms.map { $0 / total }
    }
}
