import Foundation

/// Closed-form sums over the nominal waits e_1 ... e_R of a schedule with a cap (R = retries).
///
/// The cap binds from some retry on: u waits are below the cap and R - u equal it, so
/// ```
/// sum          = S_u + (R - u) c            sumOfSquares = S2_u + (R - u) c^2
/// exponential  S_u = b (m^u - 1) / (m - 1)  S2_u = b^2 (m^(2u) - 1) / (m^2 - 1)     (m > 1)
///              S_u = u b                    S2_u = u b^2                            (m = 1)
/// linear       S_u = u b + d u(u-1)/2       S2_u = u b^2 + b d u(u-1) + d^2 (u-1)u(2u-1)/6
/// constant     S_u = u b                    S2_u = u b^2
/// ```
/// All values in nanoseconds (squares in ns²); ``sumInSeconds`` converts.
@usableFromInline
struct NominalWaitSums {
    /// u: how many of the waits are below the cap.
    let uncappedCount: Int
    /// e_1 + ... + e_R.
    let sum: Double
    /// e_1^2 + ... + e_R^2.
    let sumOfSquares: Double

    var sumInSeconds: Double { sum / 1e9 }

    init(schedule: BackoffSchedule, base b: Double, cap c: Double, retries: Int) {
        let r = max(0, retries)
        let u = Self.uncappedCount(schedule: schedule, base: b, cap: c, retries: r)
        let n = Double(u)
        var s = 0.0
        var s2 = 0.0
        switch schedule {
        case .immediate:
            uncappedCount = r
            sum = 0
            sumOfSquares = 0
            return
        case .constant:
            s = n * b
            s2 = n * b * b
        case .exponential(let m) where m == 1:
            s = n * b
            s2 = n * b * b
        case .exponential(let m):
            s = Self.geometricSum(first: b, ratio: m, terms: n)
            s2 = Self.geometricSum(first: b * b, ratio: m * m, terms: n)
        case .linear(let increment):
            let d = increment.nanoseconds
            s = n * b + d * n * (n - 1) / 2
            s2 = n * b * b + b * d * n * (n - 1) + d * d * (n - 1) * n * (2 * n - 1) / 6
        }
        let capped = Double(r - u)
        uncappedCount = u
        sum = capped > 0 ? s + capped * c : s
        sumOfSquares = capped > 0 ? s2 + capped * c * c : s2
    }

    /// a (r^n - 1) / (r - 1) for r > 1. When r^n overflows while the sum does not (a huge multiplier
    /// and few waits under the cap, e.g. m = 1e155: m^2 is infinite, the one squared wait is not),
    /// the same sum as a r^(n-1) (1 - r^-n) / (1 - r^-1), whose factors stay finite.
    static func geometricSum(first a: Double, ratio r: Double, terms n: Double) -> Double {
        let power = pow(r, n)
        if power.isFinite { return a * (power - 1) / (r - 1) }
        if n == 0 { return 0 }
        return a * pow(r, n - 1) * (-expm1(-n * log(r))) / (-expm1(-log(r)))
    }

    /// The number of k in 1...retries with schedule_k < c (the schedule never decreases).
    static func uncappedCount(schedule: BackoffSchedule, base b: Double, cap c: Double, retries: Int) -> Int {
        guard c.isFinite else { return retries }
        let below: (Int) -> Bool = { k in BackoffPolicy.uncappedWait(schedule, base: b, beforeRetry: k) < c }
        // Binary search for the last k with schedule_k < c; the predicate is monotone in k.
        var low = 0
        var high = retries
        while low < high {
            let mid = low + (high - low + 1) / 2
            if below(mid) { low = mid } else { high = mid - 1 }
        }
        return low
    }
}
