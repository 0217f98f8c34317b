import Foundation

/// The mean and variance of S_d = s_1 + ... + s_d under decorrelated jitter, for d = 1, 2, ...
///
/// The waits form a Markov chain started at s_0 = b:
/// ```
/// s_k = min(c, Y_k),   Y_k ~ U(b, r s_(k-1))
/// ```
/// Write T_d(x) = E[S_d | s_0 = x] and V_d(x) = Var(S_d | s_0 = x), and let K be the transition
/// operator, (K f)(x) = E[f(s_1) | s_0 = x]. Conditioning on the first wait y gives
/// ```
/// T_d = K[y + T_(d-1)]
/// V_d = K[V_(d-1) + g²] - (K g)²,   g(y) = y + T_(d-1)(y) - T_(d-1)(b)
/// ```
/// (the law of total variance; g is shifted by a constant so the subtraction stays well conditioned),
/// and the moments of the total wait are T_d(b) and V_d(b).
///
/// Without a cap (or when it cannot bind within d waits, b r^d <= c), T_d is linear and E[S_d²]
/// quadratic in x, so the recursion runs exactly on polynomial coefficients, using
/// E[Y | x] = (b + r x)/2 and E[Y² | x] = (b² + b r x + r² x²)/3. Its mean has the closed form
/// ```
/// E[s_k] = μ* + (b - μ*) (r/2)^k,   μ* = b / (2 - r)       (r ≠ 2; E[s_k] = b (1 + k/2) for r = 2)
/// ```
/// With a cap that binds, K has an atom at c:
/// ```
/// (K f)(x) = ( ∫_b^min(rx,c) f(y) dy + f(c) max(0, rx - c) ) / (rx - b)
/// ```
/// and the recursion runs on a piecewise Gauss-Legendre grid over [b, c] whose panel edges include
/// c/r^j, the points where K f loses smoothness. The result is deterministic numerical integration
/// (no sampling), accurate to better than 1e-9 relative at the default resolution (tested against the
/// exact uncapped recursion, an analytic single-wait case, and a grid of twice the resolution).
struct DecorrelatedMoments: IteratorProtocol {
    private enum Method {
        /// Coefficients of T(x) = t0 + t1 x and E[S²|x] = q0 + q1 x + q2 x².
        case polynomial(t0: Double, t1: Double, q0: Double, q1: Double, q2: Double)
        /// T and V at the grid's nodes.
        case grid(kernel: DecorrelatedKernel, t: [Double], v: [Double], meanAtBase: Double)
        /// c = b: every wait equals b.
        case constant(count: Double)
    }

    private let b: Double
    private let r: Double
    private var method: Method

    /// - Parameters: base b, cap c (infinity for none) and factor r, in any one unit (the moments come
    ///   back in that unit); `retries` (when known) lets the exact method run while the cap cannot bind.
    init(base b: Double, cap c: Double, factor r: Double, retries: Int? = nil, panels: Int = 32, points: Int = 10) {
        self.b = b
        self.r = r
        if c <= b {
            method = .constant(count: 0)
        } else if !c.isFinite || retries.map({ b * pow(r, Double($0)) <= c }) == true {
            method = .polynomial(t0: 0, t1: 0, q0: 0, q1: 0, q2: 0)
        } else {
            let kernel = DecorrelatedKernel(base: b, cap: c, factor: r, panels: panels, points: points)
            method = .grid(kernel: kernel, t: kernel.zeros, v: kernel.zeros, meanAtBase: 0)
        }
    }

    /// The mean and variance of the sum of the next number of waits: d = 1 on the first call.
    mutating func next() -> TotalWaitMoments? {
        switch method {
        case .constant(let count):
            method = .constant(count: count + 1)
            return TotalWaitMoments(mean: (count + 1) * b, variance: 0)

        case .polynomial(let t0, let t1, let q0, let q1, let q2):
            let (a1, b1) = (b / 2, r / 2)  // E[Y|x] = a1 + b1 x
            let (a2, b2, c2) = (b * b / 3, b * r / 3, r * r / 3)  // E[Y²|x] = a2 + b2 x + c2 x²
            // T' = K[t0 + (1 + t1) y];  E[S'^2] = K[(1 + 2 t1 + q2) y² + (2 t0 + q1) y + q0]
            let square = 1 + 2 * t1 + q2
            let linear = 2 * t0 + q1
            let next = (
                t0: t0 + (1 + t1) * a1, t1: (1 + t1) * b1,
                q0: square * a2 + linear * a1 + q0, q1: square * b2 + linear * b1, q2: square * c2
            )
            method = .polynomial(t0: next.t0, t1: next.t1, q0: next.q0, q1: next.q1, q2: next.q2)
            let mean = next.t0 + next.t1 * b
            let second = next.q0 + next.q1 * b + next.q2 * b * b
            return TotalWaitMoments(mean: mean, variance: second - mean * mean)

        case .grid(let kernel, let t, let v, let shift):  // shift = T_(d-1)(b); T_0 = 0
            var g = kernel.zeros
            var varianceIntegrand = kernel.zeros
            for i in g.indices {
                g[i] = kernel.nodes[i] + t[i] - shift
                varianceIntegrand[i] = v[i] + g[i] * g[i]
            }
            let kg = kernel.apply(g)
            let kVariance = kernel.apply(varianceIntegrand)
            var nextT = kernel.zeros
            var nextV = kernel.zeros
            for i in nextT.indices {
                nextT[i] = kg[i] + shift
                nextV[i] = kVariance[i] - kg[i] * kg[i]
            }
            let kgAtBase = kernel.applyAtBase(g)
            let moments = TotalWaitMoments(
                mean: kgAtBase + shift,
                variance: kernel.applyAtBase(varianceIntegrand) - kgAtBase * kgAtBase
            )
            method = .grid(kernel: kernel, t: nextT, v: nextV, meanAtBase: moments.mean)
            return moments
        }
    }
}

/// The transition operator K of capped decorrelated jitter, discretised on a piecewise
/// Gauss-Legendre grid over [b, c] as a dense matrix: (K f)(x_i) = Σ_j W_ij f(x_j).
struct DecorrelatedKernel {
    let nodes: [Double]
    private let matrix: [Double]
    private let baseRow: [Double]

    var zeros: [Double] { [Double](repeating: 0, count: nodes.count) }

    init(base b: Double, cap c: Double, factor r: Double, panels panelBudget: Int, points p: Int) {
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

        func row(at x: Double) -> [Double] {
            var row = [Double](repeating: 0, count: n)
            let upper = min(r * x, c)
            for (index, panel) in panels.enumerated() where panel.low < upper {
                let offset = index * p
                if panel.high <= upper {
                    let half = (panel.high - panel.low) / 2
                    for j in 0..<p { row[offset + j] += rule.weights[j] * half }
                } else {
                    // Integrate the panel's interpolant over [low, upper] with the same rule.
                    let half = (upper - panel.low) / 2
                    for q in 0..<p {
                        let y = panel.low + half * (rule.nodes[q] + 1)
                        let basis = rule.lagrangeBasis(at: 2 * (y - panel.low) / (panel.high - panel.low) - 1)
                        for j in 0..<p { row[offset + j] += rule.weights[q] * half * basis[j] }
                    }
                }
            }
            let atom = r * x - c
            if atom > 0 {
                let basis = rule.lagrangeBasis(at: 1)  // f(c), from the last panel
                for j in 0..<p { row[n - p + j] += atom * basis[j] }
            }
            let scale = 1 / (r * x - b)
            return row.map { $0 * scale }
        }

        self.nodes = nodes
        matrix = nodes.flatMap(row(at:))
        baseRow = row(at: b)
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
