import BackoffPolicies
import EventSimulation
import Testing

@testable import RetrySimulation

/// The adaptive concurrency limit at a layer (``ConcurrencyLimit``, Netflix's ``AIMDLimit``): the
/// rule as the library writes it, the machine that applies it, its spec, and runs through a stack.
@Suite struct ConcurrencyLimitTests {
    /// The library's `_update`, case by case: growth only while at least half the limit was in
    /// flight, ⌊limit × ratio⌋ after a drop or a sample slower than the timeout, then the bounds.
    @Test func theRuleIsTheLibrarys() {
        let aimd = AIMDLimit()  // 20, 20, 200, 0.9, 5 s
        #expect(aimd.update(limit: 20, rtt: 1_000, inFlight: 10, didDrop: false) == 21)
        #expect(aimd.update(limit: 20, rtt: 1_000, inFlight: 9, didDrop: false) == 20)
        #expect(aimd.update(limit: 21, rtt: 1_000, inFlight: 11, didDrop: false) == 22)
        // ⌊30 × 0.9⌋ = 27; ⌊20 × 0.9⌋ = 18, held at the minimum 20.
        #expect(aimd.update(limit: 30, rtt: 1_000, inFlight: 30, didDrop: true) == 27)
        #expect(aimd.update(limit: 20, rtt: 1_000, inFlight: 20, didDrop: true) == 20)
        // Slower than the timeout is a drop; exactly the timeout is not.
        #expect(aimd.update(limit: 30, rtt: 5_000_000_001, inFlight: 30, didDrop: false) == 27)
        #expect(aimd.update(limit: 30, rtt: 5_000_000_000, inFlight: 30, didDrop: false) == 31)
        #expect(aimd.update(limit: 200, rtt: 1_000, inFlight: 200, didDrop: false) == 200)
        // An initial limit below the minimum is lifted at the first sample, as the library does.
        let low = AIMDLimit(initialLimit: 5)
        #expect(low.update(limit: 5, rtt: 1, inFlight: 1, didDrop: false) == 20)
        let free = AIMDLimit(minLimit: 1, backoffRatio: 0.5)
        #expect(free.update(limit: 3, rtt: 1, inFlight: 3, didDrop: true) == 1)
        #expect(free.update(limit: 1, rtt: 1, inFlight: 1, didDrop: true) == 1)
    }

    /// The machine admits while fewer calls than the limit are in flight, and each ending moves
    /// the limit with the in-flight count its call opened with.
    @Test func theMachineAdmitsUpToTheLimitAndLearnsFromEachEnding() throws {
        let setting = try ConcurrencyLimit(parsing: "aimd:initial=2:min=1:max=3")
        var limiter = try #require(setting.makeBehaviour(seed: 1) as? Limiter<AIMDLimit.State>)
        #expect(limiter.admits(at: 0))
        limiter.opened(at: 0)
        limiter.opened(at: 0)
        #expect(!limiter.admits(at: 1), "two in flight against a limit of 2")
        limiter.closed(at: 10, LayerCall(openedAt: 0, inFlightAtOpen: 2), .succeeded)
        #expect(limiter.limit == 3 && limiter.inFlight == 1)
        limiter.closed(at: 20, LayerCall(openedAt: 0, inFlightAtOpen: 2), .cancelled)
        #expect(limiter.limit == 2 && limiter.inFlight == 0, "⌊3 × 0.9⌋ = 2")
        limiter.opened(at: 25)
        limiter.closed(at: 30, LayerCall(openedAt: 25, inFlightAtOpen: 1), .failed)  // a failure is a sample
        #expect(limiter.limit == 3, "1 in flight of 2 is half used: it grows")
    }

    /// Gradient2's rule, sample by sample, worked by hand from the library's `_update` with its
    /// defaults (initial 20, smoothing 0.2, queue 4, tolerance 1.5): the long RTT is the mean of the
    /// samples through the warm-up of 10, the gradient is held within [0.5, 1], and a sample taken
    /// with less than half the limit in flight leaves it alone.
    @Test func gradient2sRuleIsTheLibrarys() {
        var rule = Gradient2Limit.State(Gradient2Limit())
        // long 10 ms, gradient 1: 0.8 × 20 + 0.2 × (20 + 4) = 20.8.
        rule.sample(rtt: 10_000_000, inFlight: 20, didDrop: false)
        #expect(abs(rule.estimatedLimit - 20.8) < 1e-12 && rule.limit == 20)
        // long 25 ms, gradient 1.5 × 25/40 = 0.9375: 0.8 × 20.8 + 0.2 × (0.9375 × 20.8 + 4) = 21.34.
        rule.sample(rtt: 40_000_000, inFlight: 20, didDrop: false)
        #expect(abs(rule.estimatedLimit - 21.34) < 1e-12 && rule.limit == 21)
        // 5 in flight is less than half of 21.34: no change (the long RTT still moves, to 20 ms).
        rule.sample(rtt: 10_000_000, inFlight: 5, didDrop: true)
        #expect(abs(rule.estimatedLimit - 21.34) < 1e-12 && abs(rule.longRtt - 20_000_000) < 1e-6)
        // long 16.25 ms over 5 ms is above 2: the long RTT comes down to 0.95 of it, but this
        // sample's gradient is min(1, 1.5 × 16.25/5) = 1: 0.8 × 21.34 + 0.2 × 25.34 = 22.14.
        rule.sample(rtt: 5_000_000, inFlight: 30, didDrop: false)
        #expect(abs(rule.estimatedLimit - 22.14) < 1e-12 && abs(rule.longRtt - 0.95 * 16_250_000) < 1e-6)
        // After the warm-up the long RTT is an exponential average with factor 2/601.
        var steady = Gradient2Limit.State(Gradient2Limit(minLimit: 1))
        for _ in 0..<10 { steady.sample(rtt: 1_000, inFlight: 1, didDrop: false) }
        steady.sample(rtt: 2_000, inFlight: 1, didDrop: false)
        #expect(abs(steady.longRtt - (1_000 * (1 - 2.0 / 601) + 2_000 * 2.0 / 601)) < 1e-9)
        // A rising latency halves the gradient at most, and the minimum holds the limit.
        var falling = Gradient2Limit.State(Gradient2Limit(minLimit: 1, smoothing: 1, queueSize: 0))
        for _ in 0..<10 { falling.sample(rtt: 1_000, inFlight: 20, didDrop: false) }
        #expect(falling.estimatedLimit == 20, "gradient 1 and no queue allowance: the limit holds")
        falling.sample(rtt: 1_000_000, inFlight: 20, didDrop: false)
        #expect(falling.estimatedLimit == 10, "gradient 0.5 of 20")
        // An answer the instant the call opened counts 1 ns, not a division by zero.
        var instant = Gradient2Limit.State(Gradient2Limit())
        instant.sample(rtt: 0, inFlight: 20, didDrop: false)
        #expect(instant.estimatedLimit.isFinite && instant.limit == 20)
    }

    /// Vegas' rule, sample by sample, worked by hand from the library's `_update` (initial 20,
    /// smoothing 1; a probe multiplier so large that no probe comes): the first sample sets the
    /// no-load RTT, then the queue estimate ⌈limit (1 − noload/rtt)⌉ against log10 bands.
    @Test func vegassRuleIsTheLibrarys() {
        var rule = VegasLimit.State(VegasLimit(probeMultiplier: 1_000_000_000), seed: 1)
        rule.sample(rtt: 10_000_000, inFlight: 20, didDrop: false)
        #expect(rule.noLoadRtt == 10_000_000 && rule.estimatedLimit == 20)
        rule.sample(rtt: 10_000_000, inFlight: 20, didDrop: false)  // queue 0 ≤ 1: + 6 × 1
        #expect(rule.estimatedLimit == 26)
        rule.sample(rtt: 20_000_000, inFlight: 20, didDrop: false)  // queue ⌈26 × 0.5⌉ = 13 > 6: − 1
        #expect(rule.estimatedLimit == 25)
        rule.sample(rtt: 12_000_000, inFlight: 20, didDrop: false)  // queue ⌈25/6⌉ = 5, within [3, 6]
        #expect(rule.estimatedLimit == 25)
        rule.sample(rtt: 10_500_000, inFlight: 20, didDrop: false)  // queue ⌈25/21⌉ = 2 < 3: + 1
        #expect(rule.estimatedLimit == 26)
        rule.sample(rtt: 10_000_000, inFlight: 1, didDrop: true)  // a drop: − 1, whatever is in flight
        #expect(rule.estimatedLimit == 25)
        rule.sample(rtt: 30_000_000, inFlight: 5, didDrop: false)  // 10 < 25: no change
        #expect(rule.estimatedLimit == 25)
        rule.sample(rtt: 9_000_000, inFlight: 25, didDrop: false)  // a new least RTT: only recorded
        #expect(rule.noLoadRtt == 9_000_000 && rule.estimatedLimit == 25)
        // log10 root of 150 is 2: + 12; the maximum holds; smoothing takes part of the step.
        var wide = VegasLimit.State(VegasLimit(initialLimit: 150, probeMultiplier: 1_000_000_000), seed: 1)
        wide.sample(rtt: 1_000, inFlight: 150, didDrop: false)
        wide.sample(rtt: 1_000, inFlight: 150, didDrop: false)
        #expect(wide.estimatedLimit == 162)
        var capped = VegasLimit.State(VegasLimit(initialLimit: 999, probeMultiplier: 1_000_000_000), seed: 1)
        capped.sample(rtt: 1_000, inFlight: 999, didDrop: false)
        capped.sample(rtt: 1_000, inFlight: 999, didDrop: false)
        #expect(capped.estimatedLimit == 1_000)
        var smooth = VegasLimit.State(VegasLimit(smoothing: 0.5, probeMultiplier: 1_000_000_000), seed: 1)
        smooth.sample(rtt: 1_000, inFlight: 20, didDrop: false)
        smooth.sample(rtt: 1_000, inFlight: 20, didDrop: false)
        #expect(smooth.estimatedLimit == 23)
        #expect([1, 9, 10, 99, 100, 999, 1_000, 12_345].map(VegasLimit.log10Root) == [1, 1, 1, 1, 2, 2, 3, 4])
    }

    /// A probe takes the latest RTT as the no-load one, even above the least: with a multiplier of
    /// 1 and a limit of 1, every sample probes (the jitter is below 1). The jitter comes from the
    /// behaviour's own stream: the same seed draws the same probes.
    @Test func vegasProbesTheNoLoadRtt() {
        var rule = VegasLimit.State(VegasLimit(initialLimit: 1, probeMultiplier: 1), seed: 7)
        rule.sample(rtt: 10, inFlight: 1, didDrop: false)
        rule.sample(rtt: 50, inFlight: 1, didDrop: false)
        #expect(rule.noLoadRtt == 50 && rule.probeCount == 0)
        let (a, b) = (VegasLimit.State(VegasLimit(), seed: 7), VegasLimit.State(VegasLimit(), seed: 7))
        #expect(a.probeJitter == b.probeJitter && a.probeJitter >= 0.5 && a.probeJitter < 1)
        #expect(VegasLimit.State(VegasLimit(), seed: 8).probeJitter != a.probeJitter)
    }

    /// A limit whose bounds meet is a fixed cap: the run equals the concurrency cap's, draw for draw.
    @Test(arguments: ["aimd", "gradient2"], [1, 4])
    func aLimitWithMeetingBoundsIsTheConcurrencyCap(algorithm: String, limit: Int) throws {
        func run(_ setting: any LayerSetting) throws -> ScenarioReport {
            let policy = try BackoffPolicy(base: .milliseconds(5), jitter: .full, budget: .maxAttempts(3))
            return try Scenario(
                clients: 1,
                server: .capacity(
                    CapacityModel(workers: 2, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 20)),
                policy: policy, bucketWidth: .seconds(1),
                arrivals: .poisson(ratePerSecond: 300, duration: .seconds(20)),
                layers: [try ServiceLayer(name: "api", policy: policy, settings: [setting])]
            ).run(seed: 3)
        }
        let adaptive = try run(
            try ConcurrencyLimit(parsing: "\(algorithm):initial=\(limit):min=\(limit):max=\(limit)"))
        let fixed = try run(try #require(ConcurrencyCap(limit: limit)))
        #expect((adaptive.layers.first?.rejections ?? 0) > 0, "seed 3: the cap refuses some")
        #expect(adaptive == fixed, "seed 3, \(algorithm), limit \(limit)")
    }

    /// When the server's capacity drops to 0.3 for 5 s (one worker of 10 ms services at 80
    /// requests a second: ρ = 0.8, then 2.7), latency climbs: AIMD sees calls slower than its
    /// timeout, Gradient2 sees the latest RTT above the long-term one, Vegas a queue above its
    /// band, and each sheds more than a
    /// fixed cap at their initial 20 while the clients' requests end sooner. Every request still
    /// ends once. (Gradient2 follows a change of latency, not a level: against a steady overload
    /// its long-term RTT catches up and the limit grows back.)
    @Test(arguments: ["aimd:initial=20:min=1:timeout=30ms", "gradient2:min=1", "vegas"])
    func whenLatencyClimbsTheLimitSheds(spec: String) throws {
        let policy = try BackoffPolicy(base: .milliseconds(100), jitter: .disabled, budget: .maxAttempts(2))
        let drop = CapacityModel.Degradation(
            start: VirtualTime(.seconds(5)), end: VirtualTime(.seconds(10)), fraction: 0.3)
        func run(_ setting: any LayerSetting) throws -> ScenarioReport {
            try Scenario(
                clients: 1,
                server: .capacity(
                    CapacityModel(
                        workers: 1, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 1_000,
                        degradation: drop)),
                policy: policy, bucketWidth: .seconds(1), arrivals: .poisson(ratePerSecond: 80, duration: .seconds(20)),
                layers: [try ServiceLayer(name: "api", policy: policy, settings: [setting])]
            ).run(seed: 5)
        }
        let adaptive = try run(try ConcurrencyLimit(parsing: spec))
        let fixed = try run(try #require(ConcurrencyCap(limit: 20)))
        let (a, f) = (adaptive.layers.first?.rejections ?? 0, fixed.layers.first?.rejections ?? 0)
        #expect(a > f, "seed 5, \(spec): \(a) refused by the adaptive limit, \(f) by the fixed one")
        #expect(
            adaptive.meanCompletion < fixed.meanCompletion,
            "seed 5, \(spec): mean completion \(adaptive.meanCompletion) s against \(fixed.meanCompletion) s")
        #expect(adaptive.successes + adaptive.giveUps == adaptive.uniqueRequests, "seed 5")
    }

    /// The spec reads back; every parameter out of its range, or not of its form, is refused.
    @Test func itsSpecReadsBackAndRefusesWhatIsOutOfRange() throws {
        let setting = try ConcurrencyLimit(parsing: "aimd:max=50:min=2:backoff=0.75:timeout=250ms")
        #expect(setting.valueText == "aimd:initial=20:min=2:max=50:backoff=0.75:timeout=250ms")
        #expect(try ConcurrencyLimit(parsing: setting.valueText) == setting)
        let gradient = try ConcurrencyLimit(parsing: "gradient2:queue=0:long-window=100:tolerance=2:smoothing=0.5")
        #expect(
            gradient.valueText
                == "gradient2:initial=20:min=20:max=200:smoothing=0.5:queue=0:tolerance=2:long-window=100")
        #expect(try ConcurrencyLimit(parsing: gradient.valueText) == gradient)
        #expect(try ConcurrencyLimit(parsing: "gradient2").algorithm == .gradient2(Gradient2Limit()))
        let vegas = try ConcurrencyLimit(parsing: "vegas:probe=10:smoothing=0.5")
        #expect(vegas.valueText == "vegas:initial=20:max=1000:smoothing=0.5:probe=10")
        #expect(try ConcurrencyLimit(parsing: vegas.valueText) == vegas)
        #expect(try ConcurrencyLimit(parsing: "aimd").algorithm == .aimd(AIMDLimit()))
        for bad in [
            "", "aimd:", "aimd:initial=0", "aimd:min=0", "aimd:max=5:min=10", "aimd:backoff=1",
            "aimd:backoff=0.4", "aimd:backoff=nan", "aimd:timeout=0s", "aimd:timeout=5", "aimd:bogus=1",
            "aimd:min=1:min=2", "aimd:min=-1", "aimd:max=99999999999999999999", "aimd:initial=1e3",
            "gradient2:smoothing=0", "gradient2:smoothing=1.5", "gradient2:tolerance=0.9", "gradient2:tolerance=inf",
            "gradient2:queue=-1", "gradient2:long-window=0", "gradient2:backoff=0.9", "aimd:queue=4", "gradient2:",
            "vegas:min=1", "vegas:probe=0", "vegas:smoothing=0", "vegas:max=0", "vegas:initial=0", "reno",
        ] {
            #expect(throws: LayerSettingError.self, "'\(bad)'") { try ConcurrencyLimit(parsing: bad) }
        }
    }
}
