import BackoffPolicies
import EventSimulation
import Foundation
import RetrySimulation
import Stochastics
import Testing

@testable import BackoffCLI

/// Printing a spec and parsing the text gives the value back through its ``ArgumentCodec``, for
/// values drawn at random across each spec's ranges (seeded, so a failure names a value that
/// fails again): the hedge (as `--hedge` and as a layer's `hedge-` keys), the budget, the throttle
/// and the breaker, whose printed form is what the `hedge` column, a layer's keys, a preset's
/// options and `tune`'s candidates carry; and the jitter modes, arrivals, service times and
/// servers that the tables' columns print and `check` reads back.
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

    /// Draws ``draws`` values from the seeded stream and expects each to print through `codec` and
    /// parse back as itself; returns what each printed.
    @discardableResult
    static func expectRoundTrip<Codec: ArgumentCodec>(
        _ codec: Codec.Type, _ draw: (inout Values) throws -> Codec.Value
    ) throws -> [String] where Codec.Value: Equatable {
        var values = Values(state: seed)
        var texts: [String] = []
        for index in 0..<draws {
            let value = try draw(&values)
            let text = Codec.print(value)
            #expect(try Codec.parse(text) == value, "seed \(seed), draw \(index): \(text)")
            texts.append(text)
        }
        return texts
    }

    @Test func everyHedgeReadsBackAsItself() throws {
        let texts = try Self.expectRoundTrip(HedgeSpec.self) { values in
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
            return hedge
        }
        // The same keys in a layer's spec (`hedge-KEY=VALUE`) give the same hedge.
        for (draw, text) in texts.enumerated() {
            let keys = text.split(separator: ":").dropFirst().map { "hedge-\($0)" }.joined(separator: ",")
            let layer = try LayerOptions.layer(keys, number: 1, jitter: .full, command: "simulate")
            #expect(layer.hedging == (try HedgeSpec.parse(text)), "seed \(Self.seed), draw \(draw): --layer \(keys)")
        }
        #expect(try HedgeSpec.parse(HedgeSpec.print(nil)) == nil)
        // The one value the printer could not have written back is not a value at all.
        #expect(throws: Hedging.Invalid.self) {
            try Hedging(delay: .milliseconds(5), copies: 2, cancelsLosers: false, cancellationDelay: .milliseconds(1))
        }
    }

    @Test func everyBudgetReadsBackAsItself() throws {
        try Self.expectRoundTrip(BudgetSpec.self) { values in
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
            return budget
        }
    }

    @Test func everyQueueDisciplineReadsBackAsItself() throws {
        try Self.expectRoundTrip(QueueDisciplineSpec.self) { values in
            let interval = values.duration(1...86_400_000_000_000)
            switch values.int(0...3) {
            case 0: return .fifo
            case 1: return .lifo
            case 2: return .adaptiveLIFO(interval: interval)
            default:
                let target = values.duration(1...interval.wholeNanoseconds)
                return .controlledDelay(target: target, interval: interval)
            }
        }
    }

    @Test func everyBalancerReadsBackAsItself() throws {
        try Self.expectRoundTrip(BalancerSpec.self) { values in
            switch values.int(0...3) {
            case 0: .random
            case 1: .roundRobin
            case 2: .leastRequest(choices: nil)
            default: .leastRequest(choices: values.int(1...Balancer.mostChoices))
            }
        }
        #expect(try BalancerSpec.parse("p2c") == .leastRequest(choices: 2))
        #expect(try BalancerSpec.parse("least-request") == .leastRequest(choices: Balancer.defaultChoices))
    }

    @Test func everyHostFaultReadsBackAsItself() throws {
        try Self.expectRoundTrip(HostFaultSpec.self) { values in
            let fault: HostFault
            switch values.int(0...3) {
            case 0: fault = .failFast(latency: values.duration(0...86_400_000_000_000))
            case 1: fault = .failing(probability: values.unit())
            case 2: fault = .slow(.exponential(mean: values.duration(1...86_400_000_000_000)))
            default:
                let start = values.duration(0...86_400_000_000_000)
                let end = start + values.duration(1...86_400_000_000_000)
                fault = .down(start: VirtualTime(start), end: VirtualTime(end))
            }
            return FaultyHosts(count: values.int(1...10_000), fault: fault)
        }
        #expect(
            try HostFaultSpec.parse("1:fail-fast") == FaultyHosts(count: 1, fault: .failFast(latency: .milliseconds(1)))
        )
        #expect(
            try HostFaultSpec.parse("2:slow:service=lognormal:20ms:5ms")
                == FaultyHosts(
                    count: 2, fault: .slow(.lognormal(mean: .milliseconds(20), standardDeviation: .milliseconds(5)))))
    }

    @Test func everyRetryHostPredicateReadsBackAsItself() throws {
        try Self.expectRoundTrip(RetryHostPredicateSpec.self) { values in
            .previousHosts(attempts: values.int(0...RetryHostPredicate.mostAttempts))
        }
        #expect(try RetryHostPredicateSpec.parse("previous-hosts") == .previousHosts(attempts: 1))
    }

    @Test func everyOutlierDetectionReadsBackAsItself() throws {
        try Self.expectRoundTrip(OutlierDetectionSpec.self) { values in
            guard values.bool() else { return nil }
            return OutlierDetection(
                consecutiveFailures: values.int(1...OutlierDetection.mostFailures),
                interval: values.duration(1...86_400_000_000_000),
                baseEjectionTime: values.duration(1...86_400_000_000_000), maxEjectionPercent: 100 * values.unit())
        }
        #expect(try OutlierDetectionSpec.parse("consecutive-5xx") == OutlierDetection())
    }

    @Test func everyThrottleReadsBackAsItself() throws {
        try Self.expectRoundTrip(ThrottleSpec.self) { values in
            let throttle: Throttle
            if values.bool() {
                throttle = .sre(
                    try AdaptiveThrottle(k: 1 + 1e3 * values.unit(), window: values.duration(1...86_400_000_000_000)))
            } else {
                throttle = .awsAdaptive(
                    AdaptiveRateLimiting(
                        sdk: RateLimiterSDK.allCases[values.int(0...RateLimiterSDK.allCases.count - 1)],
                        scope: RateLimiterScope.allCases[values.int(0...RateLimiterScope.allCases.count - 1)]))
            }
            return throttle
        }
    }

    @Test func everyBreakerReadsBackAsItself() throws {
        try Self.expectRoundTrip(BreakerSpec.self) { values in
            let breaker = try CircuitBreaker(
                failureThreshold: values.bool() ? 1 : max(values.unit(), 1e-9),
                minimumRequests: values.int(1...1_000_000),
                window: values.duration(1...86_400_000_000_000), openDuration: values.duration(1...86_400_000_000_000),
                probes: values.int(1...10_000))
            return breaker
        }
        #expect(try BreakerSpec.parse(BreakerSpec.print(nil)) == nil)
    }

    @Test func everyJitterModeReadsBackAsItself() throws {
        try Self.expectRoundTrip(JitterSpec.self) { values in
            var jitter = PolicyColumnRoundTripTests.jitter(&values)
            // A decorrelated mode's factor is another option's: its name reads back with the default.
            if case .decorrelated = jitter { jitter = .decorrelated() }
            if case .decorrelatedMonotone = jitter { jitter = .decorrelatedMonotone() }
            return jitter
        }
    }

    /// `tune --constraint`: any numeric simulate column, either side, any finite bound.
    @Test func everyConstraintReadsBackAsItself() throws {
        var values = Values(state: Self.seed)
        let numeric = SimulateCommand.table.filter { !$0.holdsText }.map(\.name)
        for draw in 0..<Self.draws {
            let bound = (values.bool() ? -1 : 1) * 1e6 * values.unit() * (values.bool() ? 1 : 1e-9)
            let constraint = SearchConstraint(
                numeric[values.int(0...numeric.count - 1)], atMost: values.bool(), bound: bound)
            #expect(
                try SearchConstraint(parsing: constraint.text) == constraint,
                "seed \(Self.seed), draw \(draw): \(constraint.text)")
        }
    }

    /// `--arrivals` (a Poisson process's duration is `--duration`'s, which the column does not carry).
    /// `tune --search`: ranges of durations (log-scaled or not), numbers and counts, choices, and
    /// a layer's keys, each drawn or left out.
    @Test func everySearchSpaceReadsBackAsItself() throws {
        var values = Values(state: Self.seed)
        for draw in 0..<Self.draws {
            var items: [String] = []
            if values.bool() {
                let low = values.duration(1...60_000_000_000)
                items.append("base=\(low.unitText)..\((low * values.int(1...1_000)).unitText)")
            }
            if values.bool() {
                let low = 1 + 9 * values.unit()
                items.append("multiplier=\(CSVFormat.number(low))..\(CSVFormat.number(low + 5 * values.unit()))")
            }
            if values.bool() {
                let low = values.int(1...20)
                items.append("max-attempts=\(low)..\(low + values.int(0...20))")
            }
            if values.bool() { items.append("layer1.timeout=1ms..\(values.int(1...5_000))ms") }
            let modes = ["none", "full", "equal", "decorrelated"].filter { _ in values.bool() }
            if !modes.isEmpty || items.isEmpty {
                items.append("jitter=" + (modes.isEmpty ? ["full"] : modes).joined(separator: "|"))
            }
            let searched = try TuneSearchSpace(items.joined(separator: ","), specs: SimulateCommand.specs)
            let again = try TuneSearchSpace(searched.text, specs: SimulateCommand.specs)
            #expect(
                again.space == searched.space && again.durations == searched.durations,
                "seed \(Self.seed), draw \(draw): \(searched.text)")
        }
    }

    @Test func everyArrivalProcessReadsBackAsItself() throws {
        try Self.expectRoundTrip(ArrivalsSpec.self) { values in
            switch values.int(0...2) {
            case 0: .burst
            case 1: .uniform(window: values.duration(1...3_600_000_000_000))
            default: .poisson(ratePerSecond: 1e6 * max(values.unit(), 1e-9))
            }
        }
    }

    /// A service time of any kind; a mixture's components are not mixtures, and its weights sum to 1.
    static func serviceTime(_ values: inout Values, mixture: Bool) -> ServiceTime {
        switch values.int(0...(mixture ? 3 : 2)) {
        case 0: return .deterministic(values.duration(0...60_000_000_000))
        case 1: return .exponential(mean: values.duration(1...60_000_000_000))
        case 2:
            return .lognormal(
                mean: values.duration(1...60_000_000_000), standardDeviation: values.duration(0...60_000_000_000))
        default:
            let weights = (0..<values.int(1...4)).map { _ in max(values.unit(), 1e-3) }
            let total = weights.reduce(0, +)
            return .mixture(
                weights.map { ServiceTime.Component(weight: $0 / total, time: serviceTime(&values, mixture: false)) })
        }
    }

    @Test func everyServiceTimeReadsBackAsItself() throws {
        try Self.expectRoundTrip(ServiceTimeSpec.self) { values in
            let time = Self.serviceTime(&values, mixture: true)
            return time
        }
    }

    /// A server's kind and the parameters its `--server` text carries (the capacity server's,
    /// contention's and Retry-After's come from options of their own, and are the defaults here).
    @Test func everyServerReadsBackAsItself() throws {
        try Self.expectRoundTrip(ServerSpec.self) { values in
            let server: ServerModel
            switch values.int(0...5) {
            case 0: server = .alwaysFail
            case 1: server = .bernoulli(failureProbability: values.bool() ? values.unit() : Double(values.int(0...1)))
            case 2: server = .outage(until: VirtualTime(values.duration(0...3_600_000_000_000)))
            case 3: server = .contention(hop: .standard)
            case 4: server = try ServerSpec.parse("capacity")
            default:
                server = .rateLimit(
                    RateLimit(
                        rate: 1e4 * max(values.unit(), 1e-9), burst: values.bool() ? 1 : values.int(1...1_000_000),
                        share: values.bool() ? 1 : max(values.unit(), 1e-9)))
            }
            return server
        }
        // A trace is named by its file, which the text reads again.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("round-trip-\(getpid()).csv").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "time_s,failure_probability\n0,0.9\n1.5,0.25\n3,0\n".write(toFile: file, atomically: true, encoding: .utf8)
        let trace = try ServerSpec.parse("trace:\(file)")
        #expect(try ServerSpec.parse(ServerSpec.print(trace)) == trace)
    }
}
