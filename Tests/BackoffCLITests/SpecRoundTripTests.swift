import BackoffPolicies
import Testing

@testable import BackoffCLI

/// Printing a limit spec and parsing the text gives the value back, for values drawn at random
/// across each spec's ranges (seeded, so a failure names a value that fails again): the hedge,
/// the budget and the throttle, whose printed form is what the `hedge` column, a layer's keys,
/// a preset's options and `tune`'s candidates carry.
@Suite struct SpecRoundTripTests {
    /// SplitMix64: a seeded source of the generated values, independent of GSL and of the platform.
    struct Values {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// A double in [0, 1) with 53 random bits: most have 15 to 17 significant digits.
        mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
        }
        mutating func bool() -> Bool { next() & 1 == 1 }
        /// A duration of whole nanoseconds in `range`, its scale drawn too (1 ns to hours).
        mutating func duration(_ range: ClosedRange<Int64>) -> Duration {
            let scale = [Int64(1), 1_000, 1_000_000, 1_000_000_000][int(0...3)]
            let count = max(range.lowerBound / scale, 1)...max(range.upperBound / scale, 1)
            let value = Int64(int(Int(count.lowerBound)...Int(count.upperBound))) * scale
            return .nanoseconds(min(max(value, range.lowerBound), range.upperBound))
        }
    }

    static let seed: UInt64 = 20_261_206
    static let draws = 400

    @Test func everyHedgeReadsBackAsItself() throws {
        var values = Values(state: Self.seed)
        for draw in 0..<Self.draws {
            let cancels = values.bool()
            // A cancellation delay only where there is cancellation: `Hedging` refuses one otherwise.
            let cancelDelay = cancels && values.bool() ? values.duration(1...5_000_000_000) : .zero
            let copies = values.int(1...Hedging.maximumCopies)
            let hedge: Hedging
            switch values.int(0...2) {
            case 0:
                hedge = try Hedging(
                    delay: values.duration(0...60_000_000_000), copies: copies, cancelsLosers: cancels,
                    cancellationDelay: cancelDelay)
            case 1:
                hedge = try Hedging(
                    percentile: max(values.unit(), 1e-9), cancelsLosers: cancels, cancellationDelay: cancelDelay)
            default:
                let base = values.duration(1_000_000...3_600_000_000_000)
                let maximum: Duration? = values.bool() ? nil : base * values.int(1...1_000)
                hedge = try Hedging(
                    perTryTimeout: values.duration(1...60_000_000_000), copies: copies, backoffBase: base,
                    backoffMax: maximum, cancelsLosers: cancels, cancellationDelay: cancelDelay)
            }
            let text = LimitSpec.text(hedge)
            #expect(try LimitSpec.parseHedge(text) == hedge, "seed \(Self.seed), draw \(draw): \(text)")
        }
        #expect(try LimitSpec.parseHedge(LimitSpec.text(nil)) == nil)
        // The one value the printer could not have written back is not a value at all.
        #expect(throws: Hedging.Invalid.self) {
            try Hedging(delay: .milliseconds(5), copies: 2, cancelsLosers: false, cancellationDelay: .milliseconds(1))
        }
    }

    @Test func everyBudgetReadsBackAsItself() throws {
        var values = Values(state: Self.seed)
        for draw in 0..<Self.draws {
            let budget: RetryBudget
            switch values.int(0...3) {
            case 0:
                let tokens = 1e3 * max(values.unit(), 1e-6)
                budget = .tokenBucket(
                    try TokenBucketBudget(maxTokens: tokens, tokenRatio: tokens * max(values.unit(), 1e-6)))
            case 1:
                let cost = values.int(0...1_000)
                budget = .quota(
                    try RetryQuota(
                        maximum: values.int(1...1_000_000), retryCost: cost, timeoutRetryCost: values.int(0...1_000),
                        throttlingRetryCost: values.bool() ? nil : values.int(0...1_000)))
            case 2:
                budget = .ratio(
                    try RatioBudget(
                        percentCanRetry: values.unit(), minRetriesPerSecond: 1e3 * values.unit(),
                        window: values.duration(1...3_600_000_000_000)))
            default:
                budget = .concurrency(
                    try ConcurrencyBudget(budgetPercent: values.unit(), minRetryConcurrency: values.int(0...10_000)))
            }
            let text = LimitSpec.text(budget)
            #expect(try LimitSpec.parseBudget(text) == budget, "seed \(Self.seed), draw \(draw): \(text)")
        }
    }

    @Test func everyThrottleReadsBackAsItself() throws {
        var values = Values(state: Self.seed)
        for draw in 0..<Self.draws {
            let throttle: LimitSpec.Throttle
            if values.bool() {
                throttle = .sre(
                    try AdaptiveThrottle(k: 1 + 1e3 * values.unit(), window: values.duration(1...86_400_000_000_000)))
            } else {
                throttle = .awsAdaptive(
                    AdaptiveRateLimiting(
                        sdk: RateLimiterSDK.allCases[values.int(0...RateLimiterSDK.allCases.count - 1)],
                        scope: RateLimiterScope.allCases[values.int(0...RateLimiterScope.allCases.count - 1)]))
            }
            let text = LimitSpec.text(throttle)
            #expect(try LimitSpec.parseThrottle(text) == throttle, "seed \(Self.seed), draw \(draw): \(text)")
        }
    }
}
