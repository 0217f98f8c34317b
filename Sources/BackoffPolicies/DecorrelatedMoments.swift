import Foundation

/// The mean and variance of S_d = s_1 + ... + s_d under decorrelated jitter, for d = 1, 2, ..., and
/// the expected number of the d waits that equal the cap.
///
/// The waits form a Markov chain started at s_0 = b. Four variants (``DecorrelatedChain``) differ in
/// the window's floor L(x) (b, or the previous wait x for Finagle's monotone mode) and in where the
/// cap applies:
/// ```
/// clamp      s_k = min(c, Y_k),   Y_k ~ U(L(s_(k-1)), r s_(k-1))
/// nominal    s_k ~ U(L(s_(k-1)), min(c, r s_(k-1)))
/// ```
/// The derivation below is written for the clamped AWS chain (floor b); the others change only the
/// kernel K.
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
/// E[Y | x] = (b + r x)/2 and E[Y² | x] = (b² + b r x + r² x²)/3 (floor b), or E[Y | x] = (1 + r) x/2
/// and E[Y² | x] = (1 + r + r²) x²/3 (floor x). The floor-b mean has the closed form
/// ```
/// E[s_k] = μ* + (b - μ*) (r/2)^k,   μ* = b / (2 - r)       (r ≠ 2; E[s_k] = b (1 + k/2) for r = 2)
/// ```
/// With a cap that binds, the clamped chain's K has an atom at c:
/// ```
/// (K f)(x) = ( ∫_L^min(rx,c) f(y) dy + f(c) max(0, rx - c) ) / (rx - L)
/// ```
/// and the nominal chain's has none: (K f)(x) = ∫_L^min(rx,c) f(y) dy / (min(rx, c) - L). The expected
/// number of capped waits follows N_d = P + K N_(d-1), with P(x) = max(0, rx - c) / (rx - L) the
/// chance that the next wait is clamped.
/// and the recursion runs on a piecewise Gauss-Legendre grid over [b, c] whose panel edges include
/// c/r^j, the points where K f loses smoothness. The result is deterministic numerical integration
/// (no sampling), accurate to better than 1e-9 relative at the default resolution (tested against the
/// exact uncapped recursion, an analytic single-wait case, and a grid of twice the resolution).
struct DecorrelatedMoments: IteratorProtocol {
    private enum Method {
        /// Coefficients of T(x) = t0 + t1 x and E[S²|x] = q0 + q1 x + q2 x².
        case polynomial(t0: Double, t1: Double, q0: Double, q1: Double, q2: Double)
        /// T, V and N (expected capped waits) at the grid's nodes.
        case grid(kernel: DecorrelatedKernel, t: [Double], v: [Double], capped: [Double], meanAtBase: Double)
        /// c = b: every wait equals b (and the cap).
        case constant(count: Double)
    }

    private let b: Double
    private let r: Double
    private let chain: DecorrelatedChain
    /// Whether to run the recursion of the expected capped waits (only a clamping chain has any).
    private let countsCapped: Bool
    private var method: Method

    /// - Parameters: base b, cap c (infinity for none) and factor r, in any one unit (the moments come
    ///   back in that unit); `retries` (when known) lets the exact method run while the cap cannot bind.
    init(
        base b: Double, cap c: Double, factor r: Double, chain: DecorrelatedChain = .awsClamped, retries: Int? = nil,
        countingCapped: Bool = false, panels: Int = 32, points: Int = 10
    ) {
        self.b = b
        self.r = r
        self.chain = chain
        countsCapped = countingCapped && chain.clamps
        if c <= b {
            method = .constant(count: 0)
        } else if !c.isFinite || retries.map({ b * pow(r, Double($0)) <= c }) == true {
            method = .polynomial(t0: 0, t1: 0, q0: 0, q1: 0, q2: 0)
        } else {
            let kernel = DecorrelatedKernel(base: b, cap: c, factor: r, chain: chain, panels: panels, points: points)
            method = .grid(kernel: kernel, t: kernel.zeros, v: kernel.zeros, capped: kernel.zeros, meanAtBase: 0)
        }
    }

    /// The mean and variance of the sum of the next number of waits: d = 1 on the first call.
    mutating func next() -> TotalWaitMoments? { nextWithCapped().moments }

    /// The moments (and expected capped waits) of the sum of `count` waits. The recursion runs step
    /// by step until the chain is stationary, that is until the increments of the mean, the variance
    /// and the capped count have each changed by at most 1e-12 relative (or 1e-12 of their total) for
    /// 8 steps in a row (after at least 32 steps); from there all three grow linearly (Var S_d = d σ² + const + O(ρ^d) for a
    /// geometrically ergodic chain), so the rest is extrapolated: a billion waits cost no more than
    /// a few hundred steps.
    mutating func total(of count: Int) -> (moments: TotalWaitMoments, capped: Double) {
        var last = (moments: TotalWaitMoments(mean: 0, variance: 0), capped: 0.0)
        var increments = (mean: 0.0, variance: 0.0, capped: 0.0)
        var steady = 0
        var step = 0
        while step < count {
            let next = nextWithCapped()
            let now = (
                mean: next.moments.mean - last.moments.mean, variance: next.moments.variance - last.moments.variance,
                capped: next.capped - last.capped
            )
            // Settled: the increment changed by at most 1e-12 of itself, or of the total it adds to
            // (an increment that decays to 0 in rounding noise, as an absorbed chain's variance does).
            func settled(_ a: Double, _ b: Double, total: Double) -> Bool {
                abs(a - b) <= max(1e-12 * max(abs(a), abs(b)), 1e-12 * abs(total), 1e-300)
            }
            steady =
                settled(now.mean, increments.mean, total: next.moments.mean)
                    && settled(now.variance, increments.variance, total: next.moments.variance)
                    && settled(now.capped, increments.capped, total: next.capped) ? steady + 1 : 0
            increments = now
            last = next
            step += 1
            if step >= 32 && steady >= 8 {
                let rest = Double(count - step)
                return (
                    TotalWaitMoments(
                        mean: last.moments.mean + rest * increments.mean,
                        variance: last.moments.variance + rest * increments.variance),
                    last.capped + rest * increments.capped
                )
            }
        }
        return last
    }

    /// ``next()``, with the expected number of those d waits that equal the cap.
    mutating func nextWithCapped() -> (moments: TotalWaitMoments, capped: Double) {
        switch method {
        case .constant(let count):
            method = .constant(count: count + 1)
            return (TotalWaitMoments(mean: (count + 1) * b, variance: 0), count + 1)

        case .polynomial(let t0, let t1, let q0, let q1, let q2):
            // E[Y|x] = a1 + b1 x, E[Y²|x] = a2 + b2 x + c2 x²
            let (a1, b1, a2, b2, c2) =
                chain.floorsAtBase
                ? (b / 2, r / 2, b * b / 3, b * r / 3, r * r / 3)
                : (0, (1 + r) / 2, 0, 0, (1 + r + r * r) / 3)
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
            return (TotalWaitMoments(mean: mean, variance: second - mean * mean), 0)

        case .grid(let kernel, let t, let v, let capped, let shift):  // shift = T_(d-1)(b); T_0 = 0
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
            // N_d = P + K N_(d-1); a chain that does not clamp has P = 0, so N = 0 (not counted: 0 too).
            let nextCapped = countsCapped ? zip(kernel.capChance, kernel.apply(capped)).map { $0 + $1 } : capped
            let cappedAtBase = countsCapped ? kernel.capChanceAtBase + kernel.applyAtBase(capped) : 0
            method = .grid(kernel: kernel, t: nextT, v: nextV, capped: nextCapped, meanAtBase: moments.mean)
            return (moments, cappedAtBase)
        }
    }
}
