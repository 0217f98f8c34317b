import BackoffPolicies
import Foundation
import Stochastics
import Testing

@testable import BackoffCLI

/// Every preset against the formula of its library's source, written out here independently of
/// the toolkit's closed forms: the windows of its first waits and its mean total wait.
@Suite struct PresetTests {
    /// The windows of the first waits and the expected total wait, in seconds, as each library's
    /// source computes them (the file is named in the preset's `source`).
    static let expectations: [(preset: String, windows: [ClosedRange<Double>], mean: Double?)] = [
        // botocore 1.44, a transient error: rand * min(0.05 x 2^(attempt-1), 20), attempts 1, 2.
        ("aws-sdk-standard", [0...0.05, 0...0.1], (0.05 + 0.1) / 2),
        // botocore's adaptive mode backs off as its standard mode (the limiter is simulate's).
        ("aws-sdk-adaptive", [0...0.05, 0...0.1], (0.05 + 0.1) / 2),
        // botocore's legacy mode (retryhandler.delay_exponential, base "rand"): rand * 2^(attempt-1),
        // no cap, attempts 1 to 4.
        ("aws-sdk-legacy", [0...1, 0...2, 0...4, 0...8], (1.0 + 2 + 4 + 8) / 2),
        // botocore 1.43: rand * min(2^(attempt-1), 20), attempts 1, 2.
        ("aws-sdk-standard-1.43", [0...1, 0...2], (1.0 + 2) / 2),
        // smithy-swift: min(random * 2^attempt, 20), attempt 0, 1 (the clamp cannot bind here).
        ("aws-sdk-swift", [0...1, 0...2], (1.0 + 2) / 2),
        // aws-sdk-swift's adaptive mode backs off as its default (the limiter is simulate's).
        ("aws-sdk-swift-adaptive", [0...1, 0...2], (1.0 + 2) / 2),
        // grpc-go: Backoff(0) = 1 s exactly, then min(1.6^k, 120) ± 20 %, 99 waits (mean: the nominal).
        (
            "grpc-connection", [1...1, 1.28...1.92, 2.048...3.072],
            (0..<99).map { min(pow(1.6, Double($0)), 120) }.reduce(0, +)
        ),
        // Polly v8 defaults: 3 retries of 2 s.
        ("polly-v8-default", [2...2, 2...2, 2...2], 6),
        // Polly v8's hedging strategy retries nothing: one attempt, no wait (its hedge is checked in
        // PresetValueTests).
        ("polly-v8-hedging", [], 0),
        // Finagle's backup requests: the filter retries nothing itself (its backup is the hedge).
        ("finagle-backup-requests", [], 0),
        // Polly v8 exponential jitter: the first delay is (2 s/1.4) g(u), g(t) = 2^t tanh(√(4t)); the
        // total of 3 retries is (2 s/1.4) g(2 + u).
        ("polly-v8-exponential-jitter", [0...(2 / 1.4) * 2 * tanh(2)], (2 / 1.4) * meanOfG(from: 2)),
        // Polly Contrib: U(10 ms, min(100 ms, 3 x 10 ms)) first (the mean is simulated below).
        ("polly-contrib-decorrelated", [0.01...0.03], nil),
        // Envoy: random() % 25 ms, a whole number of ms in 0 ... 24, one retry: mean 12 ms.
        ("envoy-default", [0...0.024], 0.012),
        // Envoy's hedge: its retries are the hedge's copies (checked in PerTryTimeoutHedgeTests):
        // one attempt, no wait.
        ("envoy-hedge-on-per-try-timeout", [], 0),
        // cenkalti: RetryInterval x [0.5, 1.5], the intervals of exponential.go's table.
        ("cenkalti-default", [0.25...0.75, 0.375...1.125, 0.5625...1.6875], nil),
        // resilience4j: 500 ms x 1.5^(attempt-1) x [0.5, 1.5], 2 waits.
        ("resilience4j-exponential-random", [0.25...0.75, 0.375...1.125], 0.5 + 0.75),
        // Alamofire: 0.5 s x 2^retryCount, 2 retries.
        ("alamofire-default", [0.5...0.5, 1...1], 1.5),
        // swift-retry: random(in: 0...min(1 s x 2^attempt, 20 s)), 2 waits.
        ("swift-retry-default", [0...1, 0...2], 1.5),
        // soto: [2^a b/2, 2^a b), 4 retries: mean 0.75 (1 + 2 + 4 + 8).
        ("soto-default", [0.5...1, 1...2, 2...4, 4...8], 0.75 * 15),
        // tenacity wait_random_exponential(): uniform(0, 2^(attempt-1)), 4 waits.
        ("tenacity-random-exponential", [0...1, 0...2, 0...4, 0...8], 15.0 / 2),
        // tenacity wait_exponential_jitter(): 2^(attempt-1) + uniform(0, 1), 4 waits.
        ("tenacity-exponential-jitter", [1...2, 2...3, 4...5, 8...9], 15 + 4 * 0.5),
        // urllib3: 0, then min(6, 0.5 x 2^(k-1) + random()), 5 retries: 0, [1, 2], [2, 3], [4, 5], 6.
        ("urllib3-requests", [0...0, 1...2, 2...3, 4...5, 6...6], 0 + 1.5 + 2.5 + 4.5 + 6),
        // google-api-core: uniform(0, min(2^(k-1), 60)) until 120 s (the mean is simulated).
        ("google-api-core-default", [0...1, 0...2, 0...4], nil),
        // python-backoff: uniform(0, 2^n), n = 0 ... 3.
        ("python-backoff-expo", [0...1, 0...2, 0...4, 0...8], 15.0 / 2),
        // client-go: d + rand.Float64() 0.1 d for d = 10, 50, 250 ms: mean 1.05 x 310 ms.
        ("kubernetes-client-go", [0.01...0.011, 0.05...0.055, 0.25...0.275], 1.05 * 0.31),
    ]

    /// ∫_0^1 2^(k+u) tanh(√(4(k+u))) du by Simpson's rule on 2,000 panels (the integrand is smooth
    /// for k >= 1; error far below 1e-9).
    static func meanOfG(from k: Double) -> Double {
        let n = 2_000
        func g(_ t: Double) -> Double { pow(2, t) * tanh((4 * t).squareRoot()) }
        var sum = g(k) + g(k + 1)
        for i in 1..<n { sum += (i % 2 == 1 ? 4 : 2) * g(k + Double(i) / Double(n)) }
        return sum / Double(3 * n)
    }

    @Test func everyPresetIsPinned() {
        #expect(Set(Self.expectations.map(\.preset)) == Set(Preset.all.map(\.name)))
    }

    @Test(arguments: expectations.map(\.preset))
    func windowsAndMeanMatchTheSource(preset name: String) throws {
        let expectation = try #require(Self.expectations.first { $0.preset == name })
        let policy = try #require(Preset.named(name)).policy
        // The windows of the first waits, after draws at the middle of each window.
        var state = BackoffState(policy: policy)
        var random = ScriptedHalves()
        for (k, window) in expectation.windows.enumerated() {
            let actual = policy.waitWindowNanoseconds(after: state)
            #expect(
                abs(actual.lowerBound / 1e9 - window.lowerBound) < 1e-9
                    && abs(actual.upperBound / 1e9 - window.upperBound) < 1e-9,
                "\(name), wait \(k + 1): \(actual) ns, expected \(window) s")
            _ = policy.nextWait(after: &state, elapsed: state.totalWait, using: &random)
        }
        if let mean = expectation.mean {
            let closedForm = try #require(policy.totalWaitMoments?.mean)
            #expect(abs(closedForm - mean) <= 1e-9 * max(1, mean), "\(name): closed form \(closedForm), source \(mean)")
        }
    }

    /// Polly Contrib's decorrelated backoff, run as its source writes it (ms = U(min, min(max, 3 ms)),
    /// from ms = min), against the closed form. 200,000 requests of 5 waits; the mean's standard
    /// error is sd/√R with sd the closed form's: tolerance 4 standard errors.
    @Test func pollyContribMeanMatchesItsAlgorithm() throws {
        let policy = Preset.pollyContribDecorrelated.policy
        let moments = try #require(policy.totalWaitMoments)
        let seed: UInt64 = 530
        let random = try RandomGenerator(seed: seed)
        let runs = 200_000
        var total = 0.0
        for _ in 0..<runs {
            var ms = 10.0
            for _ in 0..<5 {
                let ceiling = min(100, ms * 3)
                ms = 10 + (ceiling - 10) * random.nextUniform()
                total += ms / 1000
            }
        }
        let mean = total / Double(runs)
        let tolerance = 4 * moments.standardDeviation / Double(runs).squareRoot()
        #expect(abs(mean - moments.mean) <= tolerance, "seed \(seed): \(mean) vs \(moments.mean) ± \(tolerance)")
    }

    /// Options given beside a preset override it; the attempt limit may be given either way.
    @Test func givenOptionsOverrideThePreset() {
        let attempts = Invocation("formula --preset aws-sdk-standard --max-attempts 6")
        #expect(attempts.status == 0)
        #expect(
            attempts.field("max_attempts") == "6" && attempts.field("cap_s") == "20"
                && attempts.field("jitter") == "full")
        let retries = Invocation("formula --preset aws-sdk-standard --max-retries 4 --jitter equal")
        #expect(retries.status == 0, "\(retries.stderr)")
        #expect(retries.field("max_attempts") == "5" && retries.field("jitter") == "equal")
        #expect(
            retries.stderr.contains(
                "'--budget aws-quota:cost=14:timeout-cost=14:throttling-cost=5' (from --preset aws-sdk-standard) "
                    + "does not apply to 'formula'; left out"))
        // A throttling error backs off from 1 s, a transient one from 50 ms.
        let throttling = Invocation("formula --preset aws-sdk-standard --failure-kind throttling")
        #expect(
            throttling.status == 0 && throttling.field("base_s") == "1"
                && throttling.field("mean_total_wait_s") == "1.5")
        #expect(Invocation("formula --preset aws-sdk-standard").field("base_s") == "0.05")
        // Envoy's retry budget is shared, so a burst needs replications for its standard errors.
        let simulate = Invocation("simulate --preset envoy-default --clients 200 --server outage:1s --replications 2")
        #expect(simulate.status == 0 && simulate.stderr.isEmpty, "\(simulate.stderr)")
        #expect(
            simulate.field("budget_denials").map { Int($0)! > 0 } == true, "Envoy's 3 retries in flight refuse most")
    }

    @Test func anUnknownPresetIsAUsageError() {
        let result = Invocation("waits --preset aws-sdk-standrd")
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(
            result.stderr.hasPrefix(
                "backoff: Invalid value 'aws-sdk-standrd' for '--preset <name>': did you mean 'aws-sdk-standard'?"))
    }

    /// `backoff presets` lists every preset with its source, and its closed form where one exists.
    @Test func thePresetsTableListsEveryPreset() throws {
        let result = Invocation("presets")
        #expect(result.status == 0)
        let table = CSVReader(text: result.stdout)
        #expect(table.malformedRecords == 0)
        #expect(table.records.map { $0[0] } == Preset.all.flatMap { p in p.failureKinds.map { _ in p.name } })
        let source = try #require(table.header.firstIndex(of: "source"))
        let mean = try #require(table.header.firstIndex(of: "mean_total_wait_s"))
        #expect(table.records.allSatisfy { !$0[source].isEmpty })
        // Every preset has a closed form but cenkalti's and google-api-core's, whose time limits
        // (15 min, 120 s) truncate the sum at random.
        #expect(
            table.records.filter { $0[mean].isEmpty }.map { $0[0] } == ["cenkalti-default", "google-api-core-default"])
    }
}

/// Uniforms of one half: draws at the middle of every window.
struct ScriptedHalves: UniformSource {
    mutating func nextUniform() -> Double { 0.5 }
}
