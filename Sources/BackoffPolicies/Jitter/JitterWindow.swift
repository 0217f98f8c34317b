/// The window U(low, high) that a jitter mode with a nominal schedule draws the wait before retry k
/// from, each end linear in the nominal wait e:
/// ```
/// none [e, e]   full [0, e]   equal [e/2, e]   proportional(F) [(1-F) e, (1+F) e]   additive(D) [e, e + D]
/// ```
/// Each window family (`WindowJitterFamily`) says its own; the modes that build their own schedule
/// (decorrelated, decorrelated-monotone, polly-v2) have none.
@usableFromInline
struct JitterWindow {
    let lowScale: Double
    let lowOffset: Double
    let highScale: Double
    let highOffset: Double

    func low(_ e: Double) -> Double { lowScale * e + lowOffset }
    func high(_ e: Double) -> Double { highScale * e + highOffset }

    /// The mean and variance of one wait drawn from the window of e, and the probability that it
    /// equals the cap c, when the draw is clamped to c (`clamp`) or not (`clamp` false):
    /// with a = c - low and h = high - low, for low < c < high,
    /// ```
    /// E[min(c, W)] = low + a - a²/(2h)     Var = a³/(3h) - a⁴/(4h²)     P(W >= c) = (high - c)/h
    /// ```
    /// (the first two from E[min(a, hU)] = a - a²/(2h) and E[min(a, hU)²] = a² - 2a³/(3h)).
    func moments(nominal e: Double, cap c: Double, clamp: Bool) -> (mean: Double, variance: Double, atCap: Double) {
        let (lo, hi) = (low(e), high(e))
        let h = hi - lo
        if clamp && lo >= c { return (c, 0, 1) }
        if !clamp || hi <= c {
            // An unclamped uniform; a point (no jitter) equals the cap when it is the cap.
            return ((lo + hi) / 2, h * h / 12, h == 0 && lo == c ? 1 : 0)
        }
        guard h.isFinite else { return (c, 0, 1) }  // an overflowed window: the draw is c
        let a = c - lo
        let ratio = a / h
        return (lo + a - a * ratio / 2, a * a * ratio / 3 - a * a * ratio * ratio / 4, 1 - ratio)
    }
}
