import BackoffPolicies
import Foundation
import RetrySimulation
import Stochastics
import Testing

/// A first retry of its own (`FirstRetry`) and waits floored to a granularity: the closed forms
/// against simulation, the draws against their exact laws, and the refusals. Every statistical check
/// is seeded, with z = 4 standard errors (a correct formula fails with probability about 6e-5 per
/// check); the seed is printed when one fails.
@Suite struct ShapedWaitsTests {
    static let seed: UInt64 = 20_261_201

    /// Envoy's draw, random() % window ms: with whole-millisecond windows W the wait is uniform on
    /// {0, ..., W-1} ms, mean (W-1)/2 ms and variance (W²-1)/12 ms², exactly.
    @Test func wholeMillisecondsGiveTheDiscreteUniformsMoments() throws {
        let policy = try BackoffPolicy(
            base: .ms(25), cap: .ms(250), jitter: .full, capMode: .nominal, budget: .maxAttempts(7),
            granularity: .ms(1))
        let windows = [25.0, 50, 100, 200, 250, 250]
        let mean = windows.map { ($0 - 1) / 2 }.reduce(0, +) / 1e3
        let variance = windows.map { ($0 * $0 - 1) / 12 }.reduce(0, +) / 1e6
        let moments = try #require(policy.totalWaitMoments)
        #expect(abs(moments.mean - mean) < 1e-12, "E[W] \(moments.mean), expected \(mean)")
        #expect(abs(moments.variance - variance) < 1e-12, "Var[W] \(moments.variance), expected \(variance)")
        // The windows a wait takes its values from: 0 ... W-1 ms.
        var state = BackoffState(policy: policy)
        var random = try RandomGenerator(seed: Self.seed)
        for window in windows {
            #expect(policy.waitWindowNanoseconds(after: state) == 0...(window - 1) * 1e6)
            _ = policy.nextWait(after: &state, elapsed: state.totalWait, using: &random)
        }
        // The longest total is Σ (W-1) ms = 869 ms, twice the mean.
        #expect(policy.totalWaitRange == 0...0.869)
    }

    /// One shaped wait against its exact law, by the one-sample KS distance over 100,000 draws: the
    /// first wait of Envoy's default (uniform on {0, ..., 24} ms), and the total of an immediate or
    /// unjittered first retry and one jittered retry (uniform on [0, e_2) and e_1 + U(0.8 e_2, 1.2 e_2)).
    /// The critical distance at alpha = 1e-4 is √(ln(2/alpha) / (2n)) = 0.0070 (conservative for a
    /// discrete law).
    @Test(arguments: ["envoy", "immediate", "unjittered"])
    func aShapedWaitFollowsItsExactLaw(kind: String) throws {
        let policy: BackoffPolicy
        let cdf: (Double) -> Double  // of the total wait in seconds
        switch kind {
        case "envoy":
            policy = try BackoffPolicy(
                base: .ms(25), cap: .ms(250), jitter: .full, budget: .maxRetries(1), granularity: .ms(1))
            cdf = { x in min(1, max(0, ((x * 1e3).rounded(.down) + 1) / 25)) }
        case "immediate":
            policy = try BackoffPolicy(
                base: .ms(500), cap: .seconds(6), jitter: .full, budget: .maxAttempts(3), firstRetry: .immediate)
            cdf = { x in min(1, max(0, x / 1.0)) }
        default:
            policy = try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 1.6), cap: .seconds(120),
                jitter: .proportional(fraction: 0.2), budget: .maxAttempts(3), firstRetry: .unjittered)
            cdf = { x in min(1, max(0, (x - 1 - 0.8 * 1.6) / (0.4 * 1.6))) }
        }
        let runs = 100_000
        var random = try RandomGenerator(seed: Self.seed)
        let totals = (0..<runs).map { _ in Double(policy.drawTotalWait(using: &random)) / 1e9 }.sorted()
        var distance = 0.0
        for (i, x) in totals.enumerated() where i == runs - 1 || totals[i + 1] != x {
            let below = Double(totals.prefix(upTo: i).lastIndex { $0 < x }.map { $0 + 1 } ?? 0) / Double(runs)
            distance = max(distance, abs(Double(i + 1) / Double(runs) - cdf(x)), abs(below - cdf(x.nextDown)))
        }
        let critical = (log(2 / 1e-4) / (2 * Double(runs))).squareRoot()
        #expect(distance <= critical, "seed \(Self.seed), \(kind): KS distance \(distance) > \(critical)")
    }

    /// Mean, variance and the share of waits at the cap of shaped policies against their closed
    /// forms: 200,000 simulated requests each. Mean: |x̄ - μ| <= 4 σ/√R. Variance: |s² - σ²| <= 4
    /// √((m4 - s⁴)/R), m4 the sample's fourth central moment. Share at the cap: |p̂ - p| <= 4
    /// √(p(1-p)/N) over the N waits (exact when p is 0 or 1).
    @Test(arguments: [
        Jitter.disabled, .full, .equal, .proportional(fraction: 0.3), .upward(fraction: 0.2),
        .additive(spread: .ms(70)),
    ])
    func shapedClosedFormsMatchSimulation(jitter: Jitter) throws {
        for (firstRetry, granularity, capMode) in [
            (FirstRetry.immediate, Duration?.none, CapMode.nominal), (.unjittered, .ms(7), .clamp),
            (.jittered, .ms(5), .clamp), (.immediate, .ms(1), .nominal), (.unjittered, nil, .nominal),
        ] {
            let policy = try BackoffPolicy(
                base: .ms(100), cap: .seconds(1), jitter: jitter, capMode: capMode, budget: .maxAttempts(8),
                firstRetry: firstRetry, granularity: granularity)
            let label =
                "seed \(Self.seed), \(jitter.name), \(firstRetry), \(granularity.map { "\($0)" } ?? "none"), \(capMode)"
            let form = try #require(policy.closedForm, "\(label): no closed form")
            let runs = 200_000
            var random = try RandomGenerator(seed: Self.seed)
            var totals: [Double] = []
            totals.reserveCapacity(runs)
            let tally = policy.drawTotalWaits(runs, using: &random) { _, total in totals.append(Double(total) / 1e9) }
            let mean = totals.reduce(0, +) / Double(runs)
            let variance = totals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(runs - 1)
            let m4 = totals.reduce(0) { $0 + pow($1 - mean, 4) } / Double(runs)
            let meanTolerance = 4 * form.moments.variance.squareRoot() / Double(runs).squareRoot() + 1e-8
            #expect(
                abs(mean - form.moments.mean) <= meanTolerance, "\(label): mean \(mean), formula \(form.moments.mean)")
            let varianceTolerance =
                4 * max(0, m4 - variance * variance).squareRoot() / Double(runs).squareRoot() + 1e-12
            #expect(
                abs(variance - form.moments.variance) <= varianceTolerance,
                "\(label): variance \(variance), formula \(form.moments.variance)")
            let p = try #require(form.atCapFraction)
            let share = Double(tally.atCap) / Double(tally.waits)
            let shareTolerance = 4 * (p * (1 - p) / Double(tally.waits)).squareRoot() + 1e-12
            #expect(abs(share - p) <= shareTolerance, "\(label): share at the cap \(share), formula \(p)")
            // The expected start times add up to the mean, and every total lies in the range.
            let starts = try #require(policy.expectedStartTimes)
            #expect(abs(starts.last! - form.moments.mean) < 1e-9, "\(label)")
            let range = policy.totalWaitRange
            #expect(totals.allSatisfy { range.contains($0) }, "\(label): a total outside \(range)")
        }
    }

    /// A request's waits one by one (BackoffState, as the simulation and Retrier draw them) are the
    /// waits the bulk path adds up, draw for draw.
    @Test func oneByOneAndBulkDrawsAgree() throws {
        let policy = try BackoffPolicy(
            base: .ms(25), cap: .ms(250), jitter: .equal, budget: .maxAttempts(6), firstRetry: .unjittered,
            granularity: .ms(2))
        var bulk = try RandomGenerator(seed: Self.seed)
        var totals: [Int64] = []
        policy.drawTotalWaits(1_000, using: &bulk) { _, total in totals.append(total) }
        var single = try RandomGenerator(seed: Self.seed)
        for total in totals {
            let waits = drawWaits(policy, using: &single)
            #expect(waits.reduce(0, +) == total)
            // e_1 = 25 ms exactly, floored to 2 ms.
            #expect(waits.first == 24_000_000 && waits.allSatisfy { $0 % 2_000_000 == 0 })
        }
    }

    @Test func theFirstCappedRetrySkipsAnImmediateFirstRetry() throws {
        let capped = try BackoffPolicy(
            base: .seconds(1), cap: .seconds(1), jitter: .full, budget: .maxAttempts(4), firstRetry: .immediate)
        #expect(capped.firstCappedRetry == 2)
        let exact = try BackoffPolicy(
            base: .seconds(1), cap: .seconds(1), jitter: .full, budget: .maxAttempts(4), firstRetry: .unjittered)
        #expect(exact.firstCappedRetry == 1)
    }

    @Test func chainsAndANonPositiveGranularityAreRefused() {
        #expect(throws: PolicyError.waitShapeNeedsIndependentWaits(jitter: .decorrelated(), rule: "a granularity")) {
            try BackoffPolicy(jitter: .decorrelated(), granularity: .ms(1))
        }
        #expect(throws: PolicyError.waitShapeNeedsIndependentWaits(jitter: .pollyV2, rule: "an immediate first retry"))
        {
            try BackoffPolicy(jitter: .pollyV2, firstRetry: .immediate)
        }
        #expect(throws: PolicyError.nonPositiveGranularity(.zero)) { try BackoffPolicy(granularity: .zero) }
    }

    /// botocore 1.44's quota: 500 / 14 = 35 retries in a row after transient errors, 500 / 5 = 100
    /// after throttling errors, and 500 / 14 after timeouts.
    @Test func botocoresQuotaChargesEachKindItsCost() {
        for (kind, timeout, expected) in [
            (FailureKind.transient, false, 35), (.throttling, false, 100), (.transient, true, 35),
        ] {
            var quota = RetryQuota.botocore2026
            var granted = 0
            while quota.acquireRetry(afterTimeout: timeout, kind: kind) != nil { granted += 1 }
            #expect(granted == expected, "\(kind), timeout \(timeout)")
        }
    }
}
