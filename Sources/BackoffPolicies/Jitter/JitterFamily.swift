/// Everything the toolkit knows about one family of jitter modes, in one file: how a wait is
/// drawn (for a request, and for many requests at once), the window it is drawn from, the share at
/// the cap, the closed forms of the total wait, the expected attempt starts, and the law of each
/// wait for the outage convolution.
///
/// A ``Jitter`` mode names its family in one place (`Jitter.visit(_:)`); the hot paths dispatch
/// there once and then run the family's code specialised, so a family costs no check per draw.
/// Durations are nanoseconds as `Double` (the policy's `_base`, `_cap` and nominal waits), unless a
/// name says seconds.
@usableFromInline
protocol JitterFamily {
    /// The simulation's random stream of the family's modes (`RandomStream`): fixed for good, so a
    /// mode draws the same numbers whichever modes run beside it.
    static var streamIndex: UInt64 { get }
    /// The cap rule the family follows unless told otherwise, and the rules it can follow.
    static var defaultCapMode: CapMode { get }
    static var capModes: [CapMode] { get }
    /// True for the families that build their own schedule from the base, ignoring the policy's.
    static var buildsItsOwnSchedule: Bool { get }
    /// True when a granularity or a first-retry rule may shape the waits: their closed forms need
    /// independent waits with a window law (``law(_:retry:)``).
    static var takesWaitShapes: Bool { get }
    /// The mode's parameter as the policy keeps it: F, D in nanoseconds, r; 0 when it has none.
    static func parameter(of jitter: Jitter) -> Double
    /// What a request's first draw builds on (`BackoffState._previous`).
    static func initialPrevious(base: Double) -> Double

    /// The wait before retry k, before rounding, with the cap rule applied; updates `previous`.
    /// Draws at most one uniform (none for a wait that is not random).
    static func draw<Random: UniformSource>(
        _ policy: BackoffPolicy, retry k: Int, previous: inout Double, using random: inout Random
    ) -> Double
    /// The total waits of `count` requests of `retries` waits each, handed to `sink` in order, with
    /// `nominal[k - 1]` the window's nominal wait before retry k; returns how many waits equal
    /// `capWait`. The same draws and rounding as ``draw(_:retry:previous:using:)``.
    static func drawTotalWaits<Random: UniformSource, Sink: TotalWaitSink>(
        _ policy: BackoffPolicy, count: Int, retries: Int, nominal: UnsafePointer<Double>, capWait: Int64,
        using random: inout Random, into sink: inout Sink
    ) -> Int

    /// The interval the wait before retry k is drawn from, after a chain's `previous`.
    static func window(_ policy: BackoffPolicy, retry k: Int, previous: Double) -> ClosedRange<Double>
    /// The law of the wait before retry k when the waits are independent: U(low, high) with
    /// probability 1 - atCap, exactly the cap with probability atCap; `nil` for chains.
    static func law(_ policy: BackoffPolicy, retry k: Int) -> (low: Double, high: Double, atCap: Double)?
    /// The law on whole nanoseconds, as the outage convolution takes it.
    static func roundedLaw(_ policy: BackoffPolicy, retry k: Int) -> (low: Double, high: Double, atCap: Double)?
    /// The largest total wait any draw of `retries` waits can produce.
    static func longestTotalWait(_ policy: BackoffPolicy, retries: Int) -> Double
    /// E[W], Var[W] (ns²) and the expected number of waits at the cap, for `retries` > 0 waits and
    /// no time limit; `nil` where no closed form exists.
    static func totals(_ policy: BackoffPolicy, retries: Int, countingCapped: Bool) -> (
        mean: Double, variance: Double, capped: Double
    )?
    /// E[t_1] ... E[t_(retries+1)] in seconds, without a time limit; `nil` without a closed form.
    static func expectedStartTimes(_ policy: BackoffPolicy, retries: Int) -> [Double]?
    /// The smallest and largest total wait of `retries` > 0 waits without a time limit, in seconds,
    /// `largest` being ``longestTotalWait(_:retries:)`` in seconds.
    static func totalWaitRange(_ policy: BackoffPolicy, retries: Int, largest: Double) -> ClosedRange<Double>
    /// How many of the first `retries` waits the cap cannot limit, counted from the first.
    static func uncappedRetries(_ policy: BackoffPolicy, retries: Int) -> Int
    /// E[w_k] = perNominal × e_k + offset (nanoseconds) when every wait's mean is so (D/2 the offset
    /// for additive) and nothing clamps; `nil` otherwise (the budget search then steps through the
    /// totals).
    static func meanPerNominalWait(_ policy: BackoffPolicy) -> (perNominal: Double, offset: Double)?
    /// E[W(2)], E[W(3)], ... in seconds, without end; it ends where no closed form exists.
    static func expectedTotals(_ policy: BackoffPolicy) -> AnyIterator<Double>
}

extension JitterFamily {
    @usableFromInline static var takesWaitShapes: Bool { !buildsItsOwnSchedule }
}

/// Something done with a mode's family, generic in the family, so each family's code is compiled
/// on its own. `Context` is what the work reads (a policy, passed along rather than stored, so the
/// hot paths copy nothing).
@usableFromInline
protocol JitterFamilyVisitor {
    associatedtype Context
    associatedtype Result
    mutating func visit<Family: JitterFamily>(_ family: Family.Type, _ context: Context) -> Result
}

extension Jitter {
    /// The registry: each mode's family. Adding a mode is its family's file and a line here.
    @inlinable
    func visit<Visitor: JitterFamilyVisitor>(_ visitor: inout Visitor, _ context: Visitor.Context) -> Visitor.Result {
        switch self {
        case .disabled: visitor.visit(NoJitter.self, context)
        case .full: visitor.visit(FullJitter.self, context)
        case .equal: visitor.visit(EqualJitter.self, context)
        case .proportional: visitor.visit(ProportionalJitter.self, context)
        case .upward: visitor.visit(UpwardJitter.self, context)
        case .additive: visitor.visit(AdditiveJitter.self, context)
        case .decorrelated: visitor.visit(DecorrelatedJitter.self, context)
        case .decorrelatedMonotone: visitor.visit(MonotoneDecorrelatedJitter.self, context)
        case .pollyV2: visitor.visit(PollyV2Jitter.self, context)
        case .exponential: visitor.visit(ExponentialJitter.self, context)
        }
    }

    /// The mode's family, for code off the hot paths (each call through it is dynamic).
    var kernel: any JitterFamily.Type {
        struct Family: JitterFamilyVisitor {
            func visit<F: JitterFamily>(_ family: F.Type, _ context: Void) -> any JitterFamily.Type { family }
        }
        var visitor = Family()
        return visit(&visitor, ())
    }
}
