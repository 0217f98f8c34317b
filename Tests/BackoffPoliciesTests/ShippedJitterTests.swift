import BackoffPolicies
import Foundation
import Stochastics
import Testing

/// The jitter modes that libraries ship (proportional, additive, the decorrelated variants, polly-v2)
/// and the two cap modes, each checked against its closed form by simulation and, where the law is
/// known exactly, by a Kolmogorov-Smirnov test. Every check is seeded and prints its seed.
///
/// Tolerances: means within z = 4 standard errors (a correct formula fails with probability about
/// 6e-5 per check); KS at α = 1e-4, whose critical value is √(ln(2/α)/2)/√R = 2.2255/√R for R samples
/// (the asymptotic Kolmogorov law, accurate to a few per cent at R = 20,000).
@Suite struct ShippedJitterTests {
    static let seed: UInt64 = 2_026_1201

    /// One request's waits, in nanoseconds, for `runs` requests.
    func waits(_ policy: BackoffPolicy, runs: Int, seed: UInt64 = seed) throws -> [[Int64]] {
        var random = try RandomGenerator(seed: seed)
        return (0..<runs).map { _ in drawWaits(policy, using: &random) }
    }

    /// The pinned example of the cap modes: full jitter, base 100 ms, cap 400 ms, 6 attempts.
    /// nominal: e = 100, 200, 400, 400, 400 ms, E[W] = 1500/2 = 750 ms, no wait at the cap.
    /// clamp: windows U(0, 100 ... 1600 ms) clamped at 400 ms: E = 50 + 100 + 200 + 300 + 350 = 1000 ms;
    /// waits 4 and 5 reach the cap with probabilities 1/2 and 3/4, so the share is 1.25/5 = 0.25.
    @Test func capModesOfThePinnedExample() throws {
        let nominal = try BackoffPolicy(
            base: .ms(100), cap: .ms(400), jitter: .full, capMode: .nominal, budget: .maxAttempts(6))
        let clamp = try BackoffPolicy(
            base: .ms(100), cap: .ms(400), jitter: .full, capMode: .clamp, budget: .maxAttempts(6))
        #expect(nominal.totalWaitMoments?.mean == 0.75)
        #expect(nominal.expectedAtCapFraction == 0)
        #expect(abs(try #require(clamp.totalWaitMoments?.mean) - 1.0) < 1e-12)
        #expect(abs(try #require(clamp.expectedAtCapFraction) - 0.25) < 1e-12)

        // Simulated: 100,000 requests. The clamped total's sd is 0.2121 s, one standard error
        // 0.67 ms; the share at the cap is a mean over requests of (capped waits)/5, whose sd is at
        // most 0.4 (two Bernoullis), one standard error at most 1.3e-3.
        let runs = 100_000
        let sample = try waits(clamp, runs: runs)
        let totals = sample.map { Double($0.reduce(0, +)) / 1e9 }
        let mean = totals.reduce(0, +) / Double(runs)
        let sd = try #require(clamp.totalWaitMoments?.standardDeviation)
        #expect(abs(mean - 1.0) <= 4 * sd / Double(runs).squareRoot(), "seed \(Self.seed): mean \(mean)")
        let shares = sample.map { Double($0.count { $0 == 400_000_000 }) / 5 }
        let share = shares.reduce(0, +) / Double(runs)
        let shareSD = (shares.map { ($0 - share) * ($0 - share) }.reduce(0, +) / Double(runs - 1)).squareRoot()
        #expect(abs(share - 0.25) <= 4 * shareSD / Double(runs).squareRoot(), "seed \(Self.seed): share \(share)")
        #expect(sample.allSatisfy { $0.allSatisfy { $0 <= 400_000_000 } })
    }

    /// Every mode and cap mode: the simulated mean total wait, its variance, and the share of waits
    /// at the cap against the closed forms. Mean: |x̄ - μ| <= 4 σ/√R. Variance: |s² - σ²| <= 4
    /// √((m4 - s⁴)/R). Share at the cap: the per-request share's sample sd s_q, |q̄ - q| <= 4 s_q/√R
    /// (plus 1e-9 when s_q is 0: a share that is exactly 0 or 1).
    @Test(
        arguments: [
            (Jitter.proportional(fraction: 0.5), CapMode.nominal, 8), (.proportional(fraction: 0.5), .clamp, 8),
            (.proportional(fraction: 0.2), .nominal, 12), (.additive(spread: .ms(300)), .nominal, 6),
            (.additive(spread: .seconds(1)), .clamp, 9), (.full, .clamp, 9), (.equal, .clamp, 7),
            (.decorrelated(), .nominal, 8), (.decorrelated(), .clamp, 8), (.decorrelated(factor: 2), .nominal, 14),
            (.decorrelatedMonotone(), .nominal, 8), (.decorrelatedMonotone(), .clamp, 8),
            (.decorrelatedMonotone(factor: 2), .nominal, 5), (.pollyV2, .clamp, 5), (.exponential, .nominal, 8),
            (.exponential, .clamp, 8),
        ] as [(Jitter, CapMode, Int)])
    func simulationAgreesWithTheClosedForms(jitter: Jitter, capMode: CapMode, attempts: Int) throws {
        // polly-v2's cap must not bind for its closed form: 60 s is above every step of 4 retries.
        let cap: Duration = jitter == .pollyV2 ? .seconds(60) : .ms(700)
        let policy = try BackoffPolicy(
            base: .ms(100), cap: cap, jitter: jitter, capMode: capMode, budget: .maxAttempts(attempts))
        let moments = try #require(policy.totalWaitMoments)
        let expectedShare = try #require(policy.expectedAtCapFraction)
        let runs = 100_000
        let sample = try waits(policy, runs: runs)
        let totals = sample.map { Double($0.reduce(0, +)) / 1e9 }
        let mean = totals.reduce(0, +) / Double(runs)
        let variance = totals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(runs - 1)
        let fourth = totals.map { pow($0 - mean, 4) }.reduce(0, +) / Double(runs)
        let label = "seed \(Self.seed), \(jitter.name), \(capMode), n = \(attempts)"
        // Each wait is rounded to the nanosecond: the mean may differ by (n - 1) × 0.5 ns besides sampling.
        let meanTolerance = 4 * moments.standardDeviation / Double(runs).squareRoot() + Double(attempts) * 0.5e-9
        #expect(
            abs(mean - moments.mean) <= meanTolerance, "\(label): mean \(mean) vs \(moments.mean) ± \(meanTolerance)")
        let varianceTolerance = 4 * ((fourth - variance * variance) / Double(runs)).squareRoot() + 1e-15
        #expect(
            abs(variance - moments.variance) <= varianceTolerance,
            "\(label): variance \(variance) vs \(moments.variance)")

        let capNanoseconds = cap.wholeNanoseconds
        let shares = sample.map { Double($0.count { $0 == capNanoseconds }) / Double(max(1, $0.count)) }
        let share = shares.reduce(0, +) / Double(runs)
        let shareSD = (shares.map { ($0 - share) * ($0 - share) }.reduce(0, +) / Double(runs - 1)).squareRoot()
        let shareTolerance = 4 * shareSD / Double(runs).squareRoot() + 1e-9
        #expect(abs(share - expectedShare) <= shareTolerance, "\(label): share at cap \(share) vs \(expectedShare)")

        // Every total lies in the closed-form range (half a nanosecond per wait of rounding).
        let range = policy.totalWaitRange
        let slack = Double(attempts) * 0.5e-9
        #expect(
            totals.allSatisfy { $0 >= range.lowerBound - slack && $0 <= range.upperBound + slack },
            "\(label): range \(range)")

        // The expected start of the last attempt is the expected total.
        let starts = try #require(policy.expectedStartTimes)
        #expect(abs(starts.last! - moments.mean) <= 1e-9 * max(1, moments.mean), "\(label)")
    }

    /// The Kolmogorov-Smirnov distance between a sample and a CDF F, sup |F_n - F|, taken at each
    /// distinct value x both at x (F_n(x) against F(x)) and just below it (F_n(x-) against
    /// `leftLimit(x)`, which differs from F(x) only at an atom).
    func ksDistance(_ sample: [Double], _ cdf: (Double) -> Double, leftLimit: ((Double) -> Double)? = nil) -> Double {
        let sorted = sample.sorted()
        let n = Double(sorted.count)
        var distance = 0.0
        var i = 0
        while i < sorted.count {
            let x = sorted[i]
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == x { j += 1 }
            let (above, below) = (Double(j + 1) / n, Double(i) / n)
            let atX = abs(cdf(x) - above)
            let belowX = abs((leftLimit?(x) ?? cdf(x)) - below)
            distance = max(distance, atX, belowX)
            i = j + 1
        }
        return distance
    }

    /// The first wait of the uniform-window modes has an exact law: U(low, high), clamped at c under
    /// `clamp` (an atom at c of mass (high - c)/(high - low)). Its CDF is (x - low)/(high - low) below c
    /// and 1 from c on. The laws are derived here by hand, not read from the library's `waitLaw`
    /// (which is checked against them too): base 100 ms, cap 110 ms, so proportional 0.5 draws
    /// U(50, 150) ms (nominal: the cap bounds the nominal 100 ms only); proportional 0.25 draws
    /// U(75, 125) ms, clamped at 110 ms, an atom of 15/50; additive 150 ms draws U(100, 250) ms, under
    /// `clamp` an atom of 140/150 at 110 ms; full draws U(0, 100) ms, below the cap. KS distance at
    /// most 2.2255/√R.
    @Test(
        arguments: [
            (Jitter.proportional(fraction: 0.5), CapMode.nominal, 50.0, 150.0, 0.0),
            (.proportional(fraction: 0.25), .clamp, 75, 125, 0.3),
            (.additive(spread: .ms(150)), .nominal, 100, 250, 0),
            (.additive(spread: .ms(150)), .clamp, 100, 250, 140.0 / 150),
            (.full, .clamp, 0, 100, 0),
        ] as [(Jitter, CapMode, Double, Double, Double)])
    func firstWaitFollowsItsExactLaw(
        jitter: Jitter, capMode: CapMode, lowMilliseconds: Double, highMilliseconds: Double, atCap: Double
    ) throws {
        let policy = try BackoffPolicy(
            base: .ms(100), cap: .ms(110), jitter: jitter, capMode: capMode, budget: .maxAttempts(2))
        let (low, high, cap) = (lowMilliseconds * 1e6, highMilliseconds * 1e6, 110e6)
        let runs = 20_000
        let sample = try waits(policy, runs: runs).map { Double($0[0]) }
        let continuous: (Double) -> Double = { x in min(1, max(0, (x - low) / (high - low))) }
        let cdf: (Double) -> Double = { x in atCap > 0 && x >= cap ? 1 : continuous(x) }
        let distance = ksDistance(sample, cdf, leftLimit: continuous)
        let critical = 2.2255 / Double(runs).squareRoot()
        #expect(distance <= critical, "seed \(Self.seed), \(jitter.name), \(capMode): KS \(distance) > \(critical)")
        // The library's own law of that wait says the same.
        let law = try #require(policy.waitLawNanoseconds(beforeRetry: 1))
        #expect(abs(law.low - low) < 1 && abs(law.atCap - atCap) < 1e-12, "\(jitter.name), \(capMode): waitLaw \(law)")
        // Clamped: [low, c].
        #expect(abs(law.high - (atCap > 0 ? cap : high)) < 1, "\(jitter.name), \(capMode): waitLaw \(law)")
    }

    /// The decorrelated modes' first random wait has an exact law too: U(b, min(c, r b)) under
    /// `nominal`, min(c, U(b, r b)) under `clamp` (the first wait for decorrelated, the second for the
    /// monotone mode, whose first is b). Base 100 ms, cap 250 ms, r = 3: the window is [100, 300] ms,
    /// capped at 250 ms, an atom of 1/4 under `clamp`. KS at α = 1e-4 on 20,000 draws.
    @Test(
        arguments: [
            (Jitter.decorrelated(), CapMode.nominal), (.decorrelated(), .clamp),
            (.decorrelatedMonotone(), .nominal), (.decorrelatedMonotone(), .clamp),
        ] as [(Jitter, CapMode)])
    func firstDecorrelatedDrawFollowsItsExactLaw(jitter: Jitter, capMode: CapMode) throws {
        let attempts = jitter == .decorrelated() ? 2 : 3
        let policy = try BackoffPolicy(
            base: .ms(100), cap: .ms(250), jitter: jitter, capMode: capMode, budget: .maxAttempts(attempts))
        let runs = 20_000
        let sample = try waits(policy, runs: runs).map { Double($0[attempts - 2]) }
        let (low, top, cap) = (100e6, 300e6, 250e6)
        let continuous: (Double) -> Double =
            capMode == .nominal
            ? { x in min(1, max(0, (x - low) / (cap - low))) }
            : { x in min(1, max(0, (x - low) / (top - low))) }
        let cdf: (Double) -> Double = { x in x >= cap ? 1 : continuous(x) }
        let distance = ksDistance(sample, cdf, leftLimit: continuous)
        let critical = 2.2255 / Double(runs).squareRoot()
        #expect(distance <= critical, "seed \(Self.seed), \(jitter.name), \(capMode): KS \(distance) > \(critical)")
        if case .decorrelatedMonotone = jitter {
            #expect(try waits(policy, runs: 100).allSatisfy { $0[0] == 100_000_000 }, "the monotone mode starts at b")
        }
    }

    /// polly-v2's total telescopes to (b/1.4) g(R - 1 + U): P(W <= x) = g⁻¹(1.4 x / b) - (R - 1) on
    /// its range. The bounds: median first delay 300 ms, 3 retries, every total in
    /// [0.851 s, 1.711 s]; the sample passes KS against that law (critical 2.2255/√R).
    @Test func pollyV2TotalFollowsItsTelescopedLaw() throws {
        let policy = try BackoffPolicy(base: .ms(300), cap: nil, jitter: .pollyV2, budget: .maxRetries(3))
        let range = policy.totalWaitRange
        #expect(abs(range.lowerBound - 0.851) < 5e-4 && abs(range.upperBound - 1.711) < 5e-4, "\(range)")
        let runs = 20_000
        let totals = try waits(policy, runs: runs).map { Double($0.reduce(0, +)) / 1e9 }
        #expect(totals.allSatisfy { $0 >= 0.851 && $0 <= 1.711 })
        let distance = ksDistance(totals) { x in
            min(1, max(0, Self.inverseG(1.4 * x / 0.3) - 2))
        }
        let critical = 2.2255 / Double(runs).squareRoot()
        #expect(distance <= critical, "seed \(Self.seed): KS \(distance) > \(critical)")
    }

    /// g⁻¹ by bisection, independent of the library's.
    static func inverseG(_ y: Double) -> Double {
        var (low, high) = (0.0, 64.0)
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if pow(2, mid) * tanh((4 * mid).squareRoot()) < y { low = mid } else { high = mid }
        }
        return low
    }

    /// Polly v8's first delays, from its source: with Delay 2 s the first exponential-jitter delay is
    /// (2 s / 1.4) g(u), g(u) = 2^u tanh(2 √u); at u = 0.5 that is 1.4142 × 0.8884 / 0.7 = 1.7949 s.
    @Test func pollyV2FirstDelayIsThePublishedFormula() throws {
        let policy = try BackoffPolicy(base: .seconds(2), cap: nil, jitter: .pollyV2, budget: .maxRetries(3))
        var random = ScriptedUniforms([0.5, 0.25, 0.75])
        let waits = drawWaits(policy, using: &random).map { Double($0) / 1e9 }
        func g(_ t: Double) -> Double { pow(2, t) * tanh((4 * t).squareRoot()) }
        let expected = [g(0.5), g(1.25) - g(0.5), g(2.75) - g(1.25)].map { $0 * 2 / 1.4 }
        for (wait, want) in zip(waits, expected) { #expect(abs(wait - want) < 1e-9, "\(waits) vs \(expected)") }
        #expect(abs(waits[0] - 1.7949) < 1e-4)
    }

    /// Finagle's monotone mode starts at b, never decreases, and stays under the cap under `nominal`.
    /// The decorrelated mode under `nominal` (Polly Contrib) draws U(b, min(c, r s)): never at the
    /// cap; under `clamp` (the 2015 post) a share of waits equals c exactly.
    @Test func decorrelatedVariantsKeepTheirShape() throws {
        let monotone = try BackoffPolicy(
            base: .ms(10), cap: .ms(100), jitter: .decorrelatedMonotone(), budget: .maxAttempts(12))
        for run in try waits(monotone, runs: 2_000) {
            #expect(run[0] == 10_000_000)
            #expect(zip(run, run.dropFirst()).allSatisfy { $0 <= $1 }, "seed \(Self.seed): \(run)")
            #expect(run.allSatisfy { $0 <= 100_000_000 })
        }
        let inside = try BackoffPolicy(
            base: .ms(10), cap: .ms(100), jitter: .decorrelated(), capMode: .nominal, budget: .maxAttempts(12))
        let clamped = try BackoffPolicy(base: .ms(10), cap: .ms(100), jitter: .decorrelated(), budget: .maxAttempts(12))
        #expect(clamped.capMode == .clamp)
        let insideWaits = try waits(inside, runs: 2_000).joined()
        let clampedWaits = try waits(clamped, runs: 2_000).joined()
        #expect(insideWaits.allSatisfy { $0 >= 10_000_000 && $0 < 100_000_000 })
        #expect(clampedWaits.count { $0 == 100_000_000 } > 1_000)
        #expect(inside.expectedAtCapFraction == 0)
        #expect((clamped.expectedAtCapFraction ?? 0) > 0.1)
    }

    /// Parameters out of range and a cap mode a jitter cannot follow are refused with their value.
    @Test func invalidParametersAreRefused() {
        #expect(throws: PolicyError.proportionalFractionOutOfRange(1.5)) {
            try BackoffPolicy(jitter: .proportional(fraction: 1.5))
        }
        #expect(throws: PolicyError.negativeAdditiveSpread(.ms(-1))) {
            try BackoffPolicy(jitter: .additive(spread: .ms(-1)))
        }
        #expect(throws: PolicyError.capModeNotApplicable(.nominal, jitter: .pollyV2)) {
            try BackoffPolicy(jitter: .pollyV2, capMode: .nominal)
        }
        #expect(throws: PolicyError.decorrelatedFactorNotAboveOne(1)) {
            try BackoffPolicy(jitter: .decorrelatedMonotone(factor: 1))
        }
    }

    /// Under `nominal`, proportional jitter can pass the cap by F; under `clamp` it cannot.
    @Test func proportionalJitterCanPassTheCapOnlyUnderNominal() throws {
        let nominal = try BackoffPolicy(
            base: .seconds(1), cap: .seconds(2), jitter: .proportional(fraction: 0.2), budget: .maxAttempts(4))
        #expect(abs(nominal.totalWaitRange.upperBound - 1.2 * 5) < 1e-9)  // e = 1, 2, 2 s
        let clamp = try BackoffPolicy(
            base: .seconds(1), cap: .seconds(2), jitter: .proportional(fraction: 0.2), capMode: .clamp,
            budget: .maxAttempts(4))
        #expect(abs(clamp.totalWaitRange.upperBound - (1.2 + 2 + 2)) < 1e-9)
    }
}
