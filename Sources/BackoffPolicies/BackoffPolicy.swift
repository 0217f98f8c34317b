import Foundation

/// A retry policy: when a request's attempts happen, and how many it may make.
///
/// The nominal wait before retry k (k = 1 ... n-1, for n attempts) is the schedule's value capped:
/// ```
/// e_k = min(c, schedule_k)        exponential: schedule_k = b m^(k-1)
/// ```
/// and the wait actually taken is e_k randomised by the ``Jitter`` mode. Properties, each tested:
/// - every wait lies in [0, c]; with `full` jitter in [0, e_k], with `equal` in [e_k/2, e_k],
///   with `decorrelated` in [b, c];
/// - a request makes at most n attempts, whichever convention (`maxAttempts`, `maxRetries`) gave n;
/// - with `maxElapsed`, a retry is made only if it would start no later than `maxElapsed` after the
///   first attempt; otherwise the request gives up at once, without waiting.
///
/// Every parameter is validated on construction, so a policy that exists can be simulated: no wait
/// overflows to infinity or NaN, and the longest total wait fits in virtual time (2^62 ns).
public struct BackoffPolicy: Hashable, Sendable {
    public let base: Duration
    public let schedule: BackoffSchedule
    /// The per-wait cap c; `nil` means no cap.
    public let cap: Duration?
    public let jitter: Jitter
    public let budget: AttemptBudget
    /// The optional limit on the time from the first attempt to the start of a retry.
    public let maxElapsed: Duration?

    /// b, c (infinity without a cap) and the total-time limit (infinity without one), in nanoseconds.
    @usableFromInline let _base: Double
    @usableFromInline let _cap: Double
    @usableFromInline let _maxElapsed: Double
    /// e_1, e_2, ... in nanoseconds, up to the first capped wait or 1024 entries.
    @usableFromInline let _nominalWaits: [Double]
    /// True when `_nominalWaits` ends at the first wait equal to the cap (all later waits equal it).
    @usableFromInline let _tableReachesCap: Bool
    /// n, and whether the schedule is `immediate`, settled once (both are read at every decision).
    @usableFromInline let _maxAttempts: Int
    @usableFromInline let _isImmediate: Bool

    /// The largest virtual time the policy's total wait may take, in nanoseconds (about 146 years).
    public static let longestTotalWaitNanoseconds: Double = 0x1p62

    public init(
        base: Duration = .milliseconds(100),
        schedule: BackoffSchedule = .exponential(multiplier: 2),
        cap: Duration? = .seconds(5),
        jitter: Jitter = .disabled,
        budget: AttemptBudget = .maxAttempts(5),
        maxElapsed: Duration? = nil
    ) throws(PolicyError) {
        guard base > .zero else { throw .nonPositiveBase(base) }
        if case .exponential(let m) = schedule, !(m.isFinite && m >= 1) { throw .multiplierBelowOne(m) }
        if case .linear(let d) = schedule, d < .zero { throw .negativeIncrement(d) }
        if let cap, cap < base { throw .capBelowBase(cap: cap, base: base) }
        guard budget.attempts >= 1 else { throw .noAttempts(budget) }
        if case .decorrelated(let r) = jitter, !(r.isFinite && r > 1) {
            throw .decorrelatedFactorNotAboveOne(r)
        }
        if let maxElapsed, maxElapsed < .zero { throw .negativeMaxElapsed(maxElapsed) }

        self.base = base
        self.schedule = schedule
        self.cap = cap
        self.jitter = jitter
        self.budget = budget
        self.maxElapsed = maxElapsed
        _base = base.nanoseconds
        _cap = cap?.nanoseconds ?? .infinity
        _maxElapsed = maxElapsed?.nanoseconds ?? .infinity

        var table: [Double] = []
        var reachesCap = false
        let retries = budget.attempts - 1
        if retries > 0 {
            for k in 1...min(retries, 1024) {
                let raw = Self.uncappedWait(schedule, base: _base, beforeRetry: k)
                table.append(min(raw, _cap))
                if raw >= _cap { reachesCap = true; break }
            }
        }
        _nominalWaits = table
        _tableReachesCap = reachesCap
        _maxAttempts = budget.attempts
        _isImmediate = schedule == .immediate

        let longest = min(Self.longestPossibleTotalWait(self), _maxElapsed + _cap)
        guard longest <= Self.longestTotalWaitNanoseconds else {
            throw .waitsOverflow(longestTotalWaitSeconds: longest / 1e9)
        }
    }

    /// The number of attempts n a request may make.
    @inlinable public var maxAttempts: Int { _maxAttempts }

    /// The multiplier m as reported in CSV (1 for schedules other than exponential).
    public var multiplier: Double { schedule.multiplier }

    /// The un-jittered wait e_k before retry k (k >= 1), in nanoseconds, with the cap applied.
    ///
    /// - Complexity: O(1).
    @inlinable
    public func nominalWait(beforeRetry k: Int) -> Double {
        if k <= _nominalWaits.count { return _nominalWaits[k - 1] }
        if _tableReachesCap { return _cap }
        return min(_cap, Self.uncappedWait(schedule, base: _base, beforeRetry: k))
    }

    @usableFromInline
    static func uncappedWait(_ schedule: BackoffSchedule, base b: Double, beforeRetry k: Int) -> Double {
        switch schedule {
        case .exponential(let m): b * pow(m, Double(k - 1))
        case .constant: b
        case .linear(let d): b + Double(k - 1) * d.nanoseconds
        case .immediate: 0
        }
    }

    /// The largest total wait any draw can produce (ignoring `maxElapsed`), in nanoseconds.
    static func longestPossibleTotalWait(_ policy: BackoffPolicy) -> Double {
        let retries = policy.maxAttempts - 1
        if case .immediate = policy.schedule { return 0 }
        if case .decorrelated(let r) = policy.jitter {
            // The k-th draw is at most min(c, b r^k): an exponential schedule from b r with ratio r.
            return NominalWaitSums(
                schedule: .exponential(multiplier: r), base: policy._base * r, cap: policy._cap, retries: retries
            ).sum
        }
        return NominalWaitSums(
            schedule: policy.schedule, base: policy._base, cap: policy._cap, retries: retries
        ).sum
    }
}
