import Foundation

/// A retry policy: when a request's attempts happen, and how many it may make.
///
/// The nominal wait before retry k (k = 1 ... n-1, for n attempts) is the schedule's value capped:
/// ```
/// e_k = min(c, schedule_k)        exponential: schedule_k = b m^(k-1)
/// ```
/// and the wait actually taken is randomised by the ``Jitter`` mode, with the cap applied before the
/// draw or after it as the ``CapMode`` says. Properties, each tested:
/// - under cap mode `clamp` every wait lies in [0, c]; under `nominal`, with `full` jitter in
///   [0, e_k], with `equal` in [e_k/2, e_k], with `proportional(F)` in [(1-F) e_k, (1+F) e_k] (which
///   may pass c), with the decorrelated modes in [b, c];
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
    /// Where the cap applies: before the jitter (`nominal`) or after it (`clamp`).
    public let capMode: CapMode
    public let budget: AttemptBudget
    /// The optional limit on the time from the first attempt to the start of a retry.
    public let maxElapsed: Duration?
    /// How the first retry's wait is chosen (the jitter's draw, e_1 exactly, or 0).
    public let firstRetry: FirstRetry
    /// The unit every wait is floored to (Envoy draws whole milliseconds), or `nil`: waits are rounded
    /// to the nearest nanosecond.
    public let granularity: Duration?

    /// b, c (infinity without a cap) and the total-time limit (infinity without one), in nanoseconds.
    @usableFromInline let _base: Double
    @usableFromInline let _cap: Double
    @usableFromInline let _maxElapsed: Double
    /// The cap applied to a draw: c under `clamp`, infinity under `nominal` (where the cap is in the
    /// window already).
    @usableFromInline let _clampAt: Double
    /// The nominal waits the jitter windows are built from, in nanoseconds, up to the first that
    /// reaches the cap or ``nominalTableLength`` entries: e_k = min(c, schedule_k) under `nominal`
    /// (and without jitter), the uncapped schedule_k under `clamp`. Past the table, e_k is computed
    /// by the same formula: the table's length changes no value, only how fast one is read.
    @usableFromInline let _nominalWaits: [Double]
    /// True when `_nominalWaits` ends at the first wait equal to the cap (all later waits equal it).
    @usableFromInline let _tableReachesCap: Bool
    /// The cap of `_nominalWaits`: c, or infinity when the table holds the uncapped schedule.
    @usableFromInline let _tableCap: Double
    /// The jitter mode's parameter: F of proportional, D of additive in nanoseconds, r of the
    /// decorrelated chains; 0 for the others.
    @usableFromInline let _jitterParameter: Double
    /// What a request's first draw builds on (``BackoffState``): b for decorrelated, 0 otherwise.
    @usableFromInline let _initialPrevious: Double
    /// n, and whether the schedule is `immediate`, settled once (both are read at every decision).
    @usableFromInline let _maxAttempts: Int
    @usableFromInline let _isImmediate: Bool
    /// The granularity in nanoseconds (0 without one), and whether a first-retry rule or a
    /// granularity shapes the waits (the draws then take ``shapedWait(_:retry:previous:using:)``).
    @usableFromInline let _grain: Double
    @usableFromInline let _shapesWaits: Bool

    /// The largest virtual time the policy's total wait may take, in nanoseconds (about 146 years).
    public static let longestTotalWaitNanoseconds: Double = 0x1p62

    /// A policy; `capMode` `nil` takes the jitter mode's ``Jitter/defaultCapMode``.
    public init(
        base: Duration = .milliseconds(100),
        schedule: BackoffSchedule = .exponential(multiplier: 2),
        cap: Duration? = .seconds(5),
        jitter: Jitter = .disabled,
        capMode: CapMode? = nil,
        budget: AttemptBudget = .maxAttempts(5),
        maxElapsed: Duration? = nil,
        firstRetry: FirstRetry = .jittered,
        granularity: Duration? = nil
    ) throws(PolicyError) {
        guard base > .zero else { throw .nonPositiveBase(base) }
        if case .exponential(let m) = schedule, !(m.isFinite && m >= 1) { throw .multiplierBelowOne(m) }
        if case .linear(let d) = schedule, d < .zero { throw .negativeIncrement(d) }
        if let cap, cap < base { throw .capBelowBase(cap: cap, base: base) }
        guard budget.attempts >= 1 else { throw .noAttempts(budget) }
        if let r = jitter.decorrelatedFactor, !(r.isFinite && r > 1) { throw .decorrelatedFactorNotAboveOne(r) }
        if case .proportional(let f) = jitter, !(f >= 0 && f <= 1) { throw .proportionalFractionOutOfRange(f) }
        if case .upward(let f) = jitter, !(f >= 0 && f.isFinite) { throw .upwardFractionOutOfRange(f) }
        if case .additive(let d) = jitter, d < .zero { throw .negativeAdditiveSpread(d) }
        let capMode = capMode ?? jitter.defaultCapMode
        guard jitter.capModes.contains(capMode) else { throw .capModeNotApplicable(capMode, jitter: jitter) }
        if let maxElapsed, maxElapsed < .zero { throw .negativeMaxElapsed(maxElapsed) }
        if let granularity, granularity <= .zero { throw .nonPositiveGranularity(granularity) }
        if !jitter.kernel.takesWaitShapes {
            if firstRetry != .jittered {
                throw .waitShapeNeedsIndependentWaits(jitter: jitter, rule: "an \(firstRetry.rawValue) first retry")
            }
            if granularity != nil { throw .waitShapeNeedsIndependentWaits(jitter: jitter, rule: "a granularity") }
        }

        self.base = base
        self.schedule = schedule
        self.cap = cap
        self.jitter = jitter
        self.capMode = capMode
        self.budget = budget
        self.maxElapsed = maxElapsed
        self.firstRetry = firstRetry
        self.granularity = granularity
        _grain = granularity?.nanoseconds ?? 0
        _shapesWaits = firstRetry != .jittered || granularity != nil
        _base = base.nanoseconds
        _cap = cap?.nanoseconds ?? .infinity
        _maxElapsed = maxElapsed?.nanoseconds ?? .infinity
        let clamps = capMode == .clamp && jitter != .disabled
        _clampAt = clamps ? _cap : .infinity
        _tableCap = clamps ? .infinity : _cap
        let kernel = jitter.kernel
        _jitterParameter = kernel.parameter(of: jitter)
        _initialPrevious = kernel.initialPrevious(base: _base)

        var table: [Double] = []
        var reachesCap = false
        let retries = budget.attempts - 1
        if retries > 0 {
            for k in 1...min(retries, Self.nominalTableLength(jitter)) {
                let raw = Self.uncappedWait(schedule, base: _base, beforeRetry: k)
                table.append(min(raw, _tableCap))
                if raw >= _tableCap {
                    reachesCap = true
                    break
                }
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

    /// How many nominal waits a policy with `jitter` keeps in its table: 1024 for the modes whose
    /// draws read a window per retry; 64 for those that build their own schedule (decorrelated),
    /// whose draws never read it, so a policy with a large attempt budget and no cap on its table
    /// (a `clamp` mode) is not built with a thousand `pow` calls (a sweep builds one per point it
    /// validates).
    static func nominalTableLength(_ jitter: Jitter) -> Int { jitter.buildsItsOwnSchedule ? 64 : 1024 }

    /// The number of attempts n a request may make.
    @inlinable public var maxAttempts: Int { _maxAttempts }

    /// The multiplier m as reported in CSV (1 for schedules other than exponential).
    public var multiplier: Double { schedule.multiplier }

    /// The un-jittered wait e_k before retry k (k >= 1), with the cap applied, rounded to whole
    /// nanoseconds as a wait is.
    public func nominalWait(beforeRetry k: Int) -> Duration {
        .nanoseconds(Self.wholeNanoseconds(nominalWaitNanoseconds(beforeRetry: k)))
    }

    /// e_k in nanoseconds, unrounded: what the draws and closed forms compute with.
    ///
    /// - Complexity: O(1).
    @inlinable
    func nominalWaitNanoseconds(beforeRetry k: Int) -> Double {
        min(_cap, windowNominal(beforeRetry: k))
    }

    /// The nominal wait the jitter window before retry k is built from, in nanoseconds: e_k under
    /// cap mode `nominal`, the uncapped schedule_k under `clamp`. - Complexity: O(1).
    @inlinable
    func windowNominal(beforeRetry k: Int) -> Double {
        if k <= _nominalWaits.count { return _nominalWaits[k - 1] }
        if _tableReachesCap { return _tableCap }
        return min(_tableCap, Self.uncappedWait(schedule, base: _base, beforeRetry: k))
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
        guard retries > 0, policy.schedule != .immediate else { return 0 }
        return policy.jitter.kernel.longestTotalWait(policy, retries: retries)
    }
}
