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
        var limiter = try #require(setting.makeBehaviour() as? ConcurrencyLimit.Limiter)
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

    /// A limit whose bounds meet is a fixed cap: the run equals the concurrency cap's, draw for draw.
    @Test(arguments: [1, 4])
    func aLimitWithMeetingBoundsIsTheConcurrencyCap(limit: Int) throws {
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
            try ConcurrencyLimit(parsing: "aimd:initial=\(limit):min=\(limit):max=\(limit)"))
        let fixed = try run(try #require(ConcurrencyCap(limit: limit)))
        #expect((adaptive.layers.first?.rejections ?? 0) > 0, "seed 3: the cap refuses some")
        #expect(adaptive == fixed, "seed 3, limit \(limit)")
    }

    /// Under an overload that makes calls slower than its timeout, the limit backs off to its
    /// minimum and the layer refuses more than a fixed limit at the initial value would; every
    /// request still ends once.
    @Test func underOverloadTheLimitBacksOff() throws {
        let policy = try BackoffPolicy(base: .milliseconds(5), jitter: .full, budget: .maxAttempts(2))
        func run(_ setting: any LayerSetting) throws -> ScenarioReport {
            try Scenario(
                clients: 1,
                server: .capacity(
                    CapacityModel(workers: 1, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 1_000)),
                policy: policy, bucketWidth: .seconds(1),
                arrivals: .poisson(ratePerSecond: 150, duration: .seconds(20)),
                layers: [try ServiceLayer(name: "api", policy: policy, settings: [setting])]
            ).run(seed: 5)
        }
        let adaptive = try run(try ConcurrencyLimit(parsing: "aimd:initial=20:min=1:timeout=30ms"))
        let fixed = try run(try #require(ConcurrencyCap(limit: 20)))
        let (a, f) = (adaptive.layers.first?.rejections ?? 0, fixed.layers.first?.rejections ?? 0)
        #expect(a > f, "seed 5: \(a) refused by the adaptive limit, \(f) by the fixed one")
        #expect(adaptive.successes + adaptive.giveUps == adaptive.uniqueRequests, "seed 5")
    }

    /// The spec reads back; every parameter out of its range, or not of its form, is refused.
    @Test func itsSpecReadsBackAndRefusesWhatIsOutOfRange() throws {
        let setting = try ConcurrencyLimit(parsing: "aimd:max=50:min=2:backoff=0.75:timeout=250ms")
        #expect(setting.valueText == "aimd:initial=20:min=2:max=50:backoff=0.75:timeout=250ms")
        #expect(try ConcurrencyLimit(parsing: setting.valueText) == setting)
        #expect(try ConcurrencyLimit(parsing: "aimd").algorithm == AIMDLimit())
        for bad in [
            "", "vegas", "aimd:", "aimd:initial=0", "aimd:min=0", "aimd:max=5:min=10", "aimd:backoff=1",
            "aimd:backoff=0.4", "aimd:backoff=nan", "aimd:timeout=0s", "aimd:timeout=5", "aimd:bogus=1",
            "aimd:min=1:min=2", "aimd:min=-1", "aimd:max=99999999999999999999", "aimd:initial=1e3",
        ] {
            #expect(throws: LayerSettingError.self, "'\(bad)'") { try ConcurrencyLimit(parsing: bad) }
        }
    }
}
