import Foundation

/// The transition operator K of a capped decorrelated chain, discretised on a piecewise
/// Gauss-Legendre grid over [b, c] as a dense matrix: (K f)(x_i) = Σ_j W_ij f(x_j).
struct DecorrelatedKernel {
    let nodes: [Double]
    private let matrix: [Double]
    private let baseRow: [Double]
    /// P(the next wait is clamped to c | x) at the nodes and at b.
    let capChance: [Double]
    let capChanceAtBase: Double

    var zeros: [Double] { [Double](repeating: 0, count: nodes.count) }

    init(
        base b: Double, cap c: Double, factor r: Double, chain: DecorrelatedChain, panels panelBudget: Int,
        points p: Int
    ) {
        let rule = GaussLegendre(points: p)
        // Panel edges: b, c, and the kinks c/r^j (the first few: later ones are smoother than the rule sees).
        var edges = [b, c]
        var kink = c / r
        var count = 0
        while kink > b && count < 16 {
            edges.append(kink)
            kink /= r
            count += 1
        }
        edges.sort()
        var panels: [(low: Double, high: Double)] = []
        for (low, high) in zip(edges, edges.dropFirst()) where high > low {
            let pieces = max(2, Int((Double(panelBudget) * (high - low) / (c - b)).rounded(.up)))
            for i in 0..<pieces {
                let a = low + (high - low) * Double(i) / Double(pieces)
                let z = i == pieces - 1 ? high : low + (high - low) * Double(i + 1) / Double(pieces)
                panels.append((a, z))
            }
        }
        let nodes = panels.flatMap { panel in
            rule.nodes.map { panel.low + (panel.high - panel.low) * ($0 + 1) / 2 }
        }
        let n = nodes.count

        /// The window's floor and, for a clamped chain, the weight of the atom at c, at x.
        func floor(_ x: Double) -> Double { chain.floorsAtBase ? b : x }
        func atom(_ x: Double) -> Double { chain.clamps ? max(0, r * x - c) : 0 }
        func row(at x: Double) -> [Double] {
            var row = [Double](repeating: 0, count: n)
            let (lower, upper) = (floor(x), min(r * x, c))
            for (index, panel) in panels.enumerated() where panel.low < upper && panel.high > lower {
                let offset = index * p
                let (from, to) = (max(panel.low, lower), min(panel.high, upper))
                if from == panel.low && to == panel.high {
                    let half = (panel.high - panel.low) / 2
                    for j in 0..<p { row[offset + j] += rule.weights[j] * half }
                } else {
                    // Integrate the panel's interpolant over [from, to] with the same rule.
                    let half = (to - from) / 2
                    for q in 0..<p {
                        let y = from + half * (rule.nodes[q] + 1)
                        let basis = rule.lagrangeBasis(at: 2 * (y - panel.low) / (panel.high - panel.low) - 1)
                        for j in 0..<p { row[offset + j] += rule.weights[q] * half * basis[j] }
                    }
                }
            }
            if atom(x) > 0 {
                let basis = rule.lagrangeBasis(at: 1)  // f(c), from the last panel
                for j in 0..<p { row[n - p + j] += atom(x) * basis[j] }
            }
            let scale = 1 / (chain.clamps ? r * x - lower : upper - lower)
            return row.map { $0 * scale }
        }
        func capChance(at x: Double) -> Double { atom(x) / (r * x - floor(x)) }

        self.nodes = nodes
        matrix = nodes.flatMap(row(at:))
        baseRow = row(at: b)
        self.capChance = nodes.map(capChance(at:))
        capChanceAtBase = capChance(at: b)
    }

    /// (K f) at every node.
    func apply(_ f: [Double]) -> [Double] {
        let n = nodes.count
        return matrix.withUnsafeBufferPointer { w in
            (0..<n).map { i in
                var total = 0.0
                for j in 0..<n { total += w[i * n + j] * f[j] }
                return total
            }
        }
    }

    /// (K f)(b).
    func applyAtBase(_ f: [Double]) -> Double {
        zip(baseRow, f).reduce(0) { $0 + $1.0 * $1.1 }
    }
}
