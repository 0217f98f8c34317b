import Foundation
import Stochastics
import Testing

@testable import BackoffPolicies

/// Exponential jitter: its total wait's law (hypoexponential) by a Kolmogorov-Smirnov test, its
/// clamped moments against numerical integration, the bound its uniform puts on a draw, and the
/// shapes it refuses. Seeded; KS at α = 1e-4 (critical 2.2255/√R, as ``ShippedJitterTests``).
@Suite struct ExponentialJitterTests {
    static let seed: UInt64 = 2_026_1206

    /// Base 100 ms, multiplier 2, no cap, 5 attempts: four exponential waits of means 0.1, 0.2,
    /// 0.4 and 0.8 s, whose sum is hypoexponential with rates λ_i = 1/mean_i:
    /// P(W > t) = Σ_i e^(-λ_i t) Π_(j≠i) λ_j / (λ_j - λ_i). 20,000 totals pass KS against it.
    @Test func theTotalWaitIsHypoexponential() throws {
        let policy = try BackoffPolicy(base: .ms(100), cap: nil, jitter: .exponential, budget: .maxAttempts(5))
        let rates = [0.1, 0.2, 0.4, 0.8].map { 1 / $0 }
        func cdf(_ t: Double) -> Double {
            guard t > 0 else { return 0 }
            var survival = 0.0
            for (i, rate) in rates.enumerated() {
                var weight = 1.0
                for (j, other) in rates.enumerated() where j != i { weight *= other / (other - rate) }
                survival += weight * exp(-rate * t)
            }
            return 1 - survival
        }
        var random = try RandomGenerator(seed: Self.seed)
        let runs = 20_000
        let totals = (0..<runs).map { _ in Double(drawWaits(policy, using: &random).reduce(0, +)) / 1e9 }
        let distance = ShippedJitterTests().ksDistance(totals, cdf)
        let critical = 2.2255 / Double(runs).squareRoot()
        #expect(distance <= critical, "seed \(Self.seed): KS \(distance) > \(critical)")
        // Its mean and variance: Σ mean_i = 1.5 s, Σ mean_i² = 0.85 s².
        let moments = try #require(policy.totalWaitMoments)
        #expect(abs(moments.mean - 1.5) < 1e-12 && abs(moments.variance - 0.85) < 1e-12, "\(moments)")
    }

    /// min(c, X) for X exponential of mean m, against ∫_0^c x f(x) dx + c P(X > c) and the
    /// centred second moment the same way, by Simpson's rule on 200,000 panels, across x = c/m
    /// from 1e-6 (the series branch, where the closed form cancels) to 30: relative error below
    /// 1e-9. A policy with one such wait (x ≥ 1: a cap is at least the base) says the same.
    @Test(arguments: [1e-6, 5e-4, 1e-3, 2e-3, 0.1, 1, 3, 30])
    func aClampedWaitsMomentsAreTheIntegrals(ratio: Double) throws {
        let c = 2e8  // 200 ms in nanoseconds, the unit of the family's moments
        let m = c / ratio
        let panels = 200_000
        let h = c / Double(panels)
        func simpson(_ g: (Double) -> Double) -> Double {
            var sum = 0.0
            for i in 0...panels {
                let weight = i == 0 || i == panels ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0)
                sum += weight * g(Double(i) * h)
            }
            return sum * h / 3
        }
        let tail = exp(-c / m)
        let mean = simpson { x in x * exp(-x / m) / m } + c * tail
        let variance = simpson { x in (x - mean) * (x - mean) * exp(-x / m) / m } + (c - mean) * (c - mean) * tail
        let moments = ExponentialJitter.moments(mean: m, clampedAt: c)
        #expect(abs(moments.mean - mean) <= 1e-9 * mean, "x = \(ratio): \(moments.mean) against \(mean)")
        #expect(
            abs(moments.variance - variance) <= 1e-9 * variance,
            "x = \(ratio): \(moments.variance) against \(variance)")
        #expect(abs(moments.atCap - tail) < 1e-15, "x = \(ratio)")
        guard ratio >= 1, m == m.rounded() else { return }
        let policy = try BackoffPolicy(
            base: .nanoseconds(Int64(m)), schedule: .constant, cap: .milliseconds(200), jitter: .exponential,
            capMode: .clamp, budget: .maxAttempts(2))
        let total = try #require(policy.totalWaitMoments)
        #expect(
            abs(total.mean - mean / 1e9) <= 1e-9 * mean / 1e9
                && abs(total.variance - variance / 1e18) <= 1e-9 * variance / 1e18)
    }

    /// The largest uniform below 1 gives 53 ln 2 = 36.74 means, within the 36.75 the policy
    /// reserves: a policy whose 36.75 × Σ e_k passes virtual time's 2^62 ns is refused, one below
    /// it is built, and no draw exceeds the range the policy states.
    @Test func aDrawIsBoundedByItsUniform() throws {
        struct Largest: UniformSource {
            mutating func nextUniform() -> Double { 1 - 0x1p-53 }
        }
        let policy = try BackoffPolicy(base: .seconds(1), cap: nil, jitter: .exponential, budget: .maxAttempts(2))
        var largest = Largest()
        let wait = try #require(drawWaits(policy, using: &largest).first)
        #expect(wait >= 36_736_000_000 && Double(wait) / 1e9 <= policy.totalWaitRange.upperBound, "\(wait) ns")
        // 2^62 ns / 36.75 is 1.2549e17 ns: one wait of 1.25e17 ns fits, one of 1.26e17 does not.
        _ = try BackoffPolicy(
            base: .nanoseconds(125_000_000_000_000_000), cap: nil, jitter: .exponential,
            budget: .maxAttempts(2))
        #expect(throws: PolicyError.self) {
            try BackoffPolicy(
                base: .nanoseconds(126_000_000_000_000_000), cap: nil, jitter: .exponential,
                budget: .maxAttempts(2))
        }
    }

    /// A granularity or a first-retry rule needs a window law, which an exponential wait has not:
    /// refused, and the message says why.
    @Test func shapesAreRefusedWithTheReason() {
        #expect(throws: PolicyError.waitShapeNeedsIndependentWaits(jitter: .exponential, rule: "a granularity")) {
            try BackoffPolicy(jitter: .exponential, granularity: .ms(1))
        }
        do {
            _ = try BackoffPolicy(jitter: .exponential, firstRetry: .immediate)
            Issue.record("an immediate first retry was accepted")
        } catch {
            #expect("\(error)".contains("drawn uniformly from a window"), "\(error)")
        }
        #expect(Jitter(name: "exponential") == .exponential && Jitter.exponential.name == "exponential")
    }
}
