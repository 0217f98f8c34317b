import BackoffPolicies
import Testing

@testable import RetrySimulation

/// A layer behaviour is a machine of its layer's calls: the stack asks it whether a request may
/// open a call, and tells it when a call opens and how it ends. Nothing else reaches it, so a
/// behaviour written here, outside the registry, runs in a stack as the built-in cap does.
@Suite struct LayerBehaviourTests {
    /// A behaviour only a test has: the layer admits requests while fewer than `successes` of its
    /// calls have ended in success, and keeps what it heard of each call's end.
    struct SuccessQuota: LayerSetting {
        let successes: Int
        static let key = "success-quota"
        static let valueName = "count"
        static let valueKind = LayerValueKind.count
        static let form = "a whole number"
        static let help = "Requests admitted until this many calls succeeded."
        static let summary = "a quota of successes"
        init(successes: Int) { self.successes = successes }
        init(parsing text: String) throws(LayerSettingError) {
            guard let successes = Int(text) else { throw LayerSettingError() }
            self.successes = successes
        }
        var valueText: String { String(successes) }
        func makeBehaviour(seed: UInt64) -> any LayerBehaviour { Machine(successes: successes) }

        struct Machine: LayerBehaviour {
            let successes: Int
            var succeeded = 0, open = 0

            func admits(at now: Int64) -> Bool { succeeded < successes }
            mutating func opened(at now: Int64) { open += 1 }
            mutating func closed(at now: Int64, _ call: LayerCall, _ ending: LayerCallEnding) {
                precondition(
                    open > 0 && call.openedAt <= now && call.inFlightAtOpen >= 1,
                    "a call closed that never opened, or before it opened")
                open -= 1
                if ending == .succeeded { succeeded += 1 }
            }
        }
    }

    /// Ten clients within a second against a server that answers at once: the first three
    /// calls succeed, so the layer refuses the seven after them at once (one attempt everywhere).
    /// The quota counts only successes: against a server that always fails, nothing is refused.
    @Test func aBehaviourOutsideTheRegistryRunsInAStack() throws {
        let once = try BackoffPolicy(budget: .maxAttempts(1))
        let layer = try ServiceLayer(name: "quota", policy: once, settings: [SuccessQuota(successes: 3)])
        for (server, refused) in [(ServerModel.bernoulli(failureProbability: 0, retryAfter: nil), 7), (.alwaysFail, 0)]
        {
            let scenario = try Scenario(
                clients: 10, server: server, policy: once, bucketWidth: .milliseconds(100),
                arrivals: .uniform(window: .seconds(1)), layers: [layer])
            let report = try scenario.run(seed: 7)
            #expect(report.layers[0].requests == 10 && report.layers[0].rejections == refused, "\(server)")
            #expect(report.attempts == 10 - refused, "\(server)")
        }
    }

    /// The DocC article's example: a layer that sheds requests while its latest call took longer
    /// than a threshold.
    struct LatencyShedding: LayerSetting {
        let threshold: Int64
        static let key = "shed-above"
        static let valueName = "nanoseconds"
        static let valueKind = LayerValueKind.count
        static let form = "a whole number of nanoseconds"
        static let help = "Refuse requests while the latest call took longer than this."
        static let summary = "a latency above which requests are shed"
        init(threshold: Int64) { self.threshold = threshold }
        init(parsing text: String) throws(LayerSettingError) {
            guard let threshold = Int64(text), threshold >= 0 else { throw LayerSettingError() }
            self.threshold = threshold
        }
        var valueText: String { String(threshold) }
        func makeBehaviour(seed: UInt64) -> any LayerBehaviour { Machine(threshold: threshold) }

        struct Machine: LayerBehaviour {
            let threshold: Int64
            var latest: Int64 = 0
            func admits(at now: Int64) -> Bool { latest <= threshold }
            mutating func opened(at now: Int64) {}
            mutating func closed(at now: Int64, _ call: LayerCall, _ ending: LayerCallEnding) {
                latest = now - call.openedAt
            }
        }
    }

    /// Ten clients within a second against one worker of fixed 100 ms services: the first call
    /// ends 100 ms after it opened, above a 50 ms threshold, so every request arriving after that
    /// is refused, and those before it are served; with a threshold of 1 s none is refused. The
    /// behaviour hears each call's latency as `now - call.openedAt`.
    @Test func theArticlesSheddingLayerRefusesAfterASlowCall() throws {
        let once = try BackoffPolicy(budget: .maxAttempts(1))
        let capacity = CapacityModel(workers: 1, serviceTime: .deterministic(.milliseconds(100)), queueLimit: 100)
        let layer = try ServiceLayer(name: "api", policy: once, settings: [LatencyShedding(threshold: 50_000_000)])
        let patient = try ServiceLayer(
            name: "api", policy: once, settings: [LatencyShedding(threshold: 1_000_000_000)])
        for (layer, shedsAfterFirst) in [(layer, true), (patient, false)] {
            let scenario = try Scenario(
                clients: 10, server: .capacity(capacity), policy: once, bucketWidth: .milliseconds(100),
                arrivals: .uniform(window: .seconds(1)), layers: [layer])
            let arrivals = try scenario.arrivalTimes(seed: 7, algorithm: .standard)
            let late = arrivals.filter { $0 > arrivals[0] + 100_000_000 }.count
            let report = try scenario.run(seed: 7)
            #expect(report.layers[0].rejections == (shedsAfterFirst ? late : 0), "sheds: \(shedsAfterFirst)")
            #expect(report.attempts == 10 - report.layers[0].rejections && (1..<10).contains(late))
        }
    }

    /// The cap's setting reads and prints itself: every value from 1 to the largest, nothing else.
    @Test func theConcurrencyCapReadsWhatItPrints() throws {
        for limit in [1, 2, 100, ConcurrencyCap.largest] {
            let cap = try #require(ConcurrencyCap(limit: limit))
            #expect(try ConcurrencyCap(parsing: cap.valueText) == cap && cap.description == "concurrency=\(limit)")
        }
        for text in ["0", "-1", "", "1e3", "+5", " 5", "1000000001", "99999999999999999999"] {
            #expect(throws: LayerSettingError.self, "\(text)") { try ConcurrencyCap(parsing: text) }
        }
        #expect(ConcurrencyCap(limit: 0) == nil && ConcurrencyCap(limit: ConcurrencyCap.largest + 1) == nil)
    }

    /// A layer holds one setting of each kind, in the registry's order, whichever way it came.
    @Test func aLayerHoldsEachSettingOnce() throws {
        let policy = try BackoffPolicy(budget: .maxAttempts(1))
        let cap = try #require(ConcurrencyCap(limit: 4))
        #expect(throws: SimulationError.repeatedLayerSetting("api", "concurrency")) {
            try ServiceLayer(name: "api", policy: policy, concurrency: 2, settings: [cap])
        }
        let both = try ServiceLayer(name: "api", policy: policy, settings: [SuccessQuota(successes: 1), cap])
        #expect(both.settings.map { type(of: $0).key } == ["concurrency", "success-quota"] && both.concurrency == 4)
        #expect(
            try ServiceLayer(name: "api", policy: policy, concurrency: 4)
                == ServiceLayer(name: "api", policy: policy, settings: [cap]))
        #expect(throws: SimulationError.noLayerConcurrency("api", 0)) {
            try ServiceLayer(name: "api", policy: policy, concurrency: 0)
        }
    }
}
