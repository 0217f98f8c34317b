internal import CGSL
import Foundation
import Testing

@testable import Stochastics

/// The Swift ziggurat against GSL's `gsl_ran_gaussian_ziggurat`: the tables it read, checked
/// against the ziggurat's own geometry, and 10^7 draws per generator compared call by call.
@Suite struct ZigguratTests {
    /// The tables have the ziggurat's shape: strip edges x_(i+1) = 2^24 w_i increasing to R (the
    /// base strip's edge) and R + 1/R (its rectangle with the wedge's area); heights y_i =
    /// exp(−x_i²/2) to the precision of GSL's 12 digits; each k_i = 2^24 x_i / x_(i+1) to within one (the
    /// rectangle inside the strip); strips of equal area x_(i+1)(y_i − y_(i+1)) to 1e-9 relative.
    @Test func theTablesAreGSLsZiggurat() {
        let tables = Ziggurat.gsl.tables
        let x = [0] + tables.w.map { $0 * 0x1p24 }
        let r = 3.44428647676
        #expect(zip(x, x.dropFirst()).allSatisfy { $0 < $1 })
        #expect(abs(x[127] - r) < 1e-10 && abs(x[128] - (r + 1 / r)) < 1e-10)
        #expect(tables.y[0] == 1)
        // x_i is w_(i−1)'s 12 digits (relative error 5e-12), so exp(−x_i²/2) is known to x_i²·5e-12
        // relative, and y_i is rounded to 12 digits (5e-12 more).
        for i in 1..<128 {
            let curve = exp(-0.5 * x[i] * x[i])
            #expect(abs(tables.y[i] - curve) <= (x[i] * x[i] + 1) * 5.5e-12 * curve, "y_\(i)")
        }
        #expect(tables.k[0] == 0)
        for i in 1..<128 {
            let bound = 0x1p24 * x[i] / x[i + 1]
            #expect(abs(Double(tables.k[i]) - bound) <= 1, "k_\(i) \(tables.k[i]), 2^24 x_i/x_(i+1) \(bound)")
        }
        let area = x[128] * tables.y[127]
        for i in 0..<127 {
            let strip = x[i + 1] * (tables.y[i] - tables.y[i + 1])
            #expect(abs(strip - area) <= 1e-9 * area, "strip \(i): \(strip), the base strip \(area)")
        }
    }

    /// 10^7 draws for each generator, seed 2015, σ = 1 and σ = 0.25 alternating: every draw is
    /// bit-identical to GSL's for the same state, and the states stay in step (the next outputs
    /// agree), so the rejection paths (about 1 % of draws) and the base strip's tail are covered.
    @Test(arguments: ["taus2", "mt19937"])
    func everyDrawIsGSLs(generator name: String) {
        let count = 10_000_000
        let seed: UInt64 = 2015
        let type = name == "taus2" ? cgsl_rng_taus2()! : cgsl_rng_mt19937()!
        let rng = gsl_rng_alloc(type)!
        defer { gsl_rng_free(rng) }
        gsl_rng_set(rng, UInt(seed))
        var taus = Taus2(seed: seed)
        var twister = MersenneTwister(seed: seed)
        let ziggurat = Ziggurat.gsl
        var mismatches = 0
        var tail = 0
        for n in 0..<count {
            let sigma = n % 2 == 0 ? 1.0 : 0.25
            let expected = gsl_ran_gaussian_ziggurat(rng, sigma)
            let drawn =
                name == "taus2"
                ? ziggurat.normal(sigma: sigma, using: &taus) : ziggurat.normal(sigma: sigma, using: &twister)
            if drawn.bitPattern != expected.bitPattern {
                mismatches += 1
                if mismatches <= 3 { Issue.record("\(name), seed \(seed), draw \(n): \(drawn), GSL \(expected)") }
            }
            if abs(expected / sigma) > 3.44428647676 { tail += 1 }
        }
        #expect(mismatches == 0, "\(name), seed \(seed): \(mismatches) of \(count) draws differ")
        let next = UInt32(truncatingIfNeeded: gsl_rng_get(rng))
        #expect((name == "taus2" ? taus.next() : twister.next()) == next, "\(name): the states fell out of step")
        // P(|Z| > R) = 5.73e-4: about 5,730 of 10^7 draws reach the tail (4 sd of a binomial: ±300).
        #expect(abs(Double(tail) - 5_730) < 400, "\(name): \(tail) draws beyond R")
    }
}
