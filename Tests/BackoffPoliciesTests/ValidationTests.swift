import BackoffPolicies
import Testing

@Suite struct ValidationTests {
    @Test func badParametersAreRejectedWithTheValue() {
        let cases: [(String, () throws(PolicyError) -> BackoffPolicy, PolicyError)] = [
            ("zero base", { () throws(PolicyError) in try BackoffPolicy(base: .zero) }, .nonPositiveBase(.zero)),
            (
                "negative base", { () throws(PolicyError) in try BackoffPolicy(base: .ms(-1)) },
                .nonPositiveBase(.ms(-1))
            ),
            (
                "multiplier below 1",
                { () throws(PolicyError) in try BackoffPolicy(schedule: .exponential(multiplier: 0.5)) },
                .multiplierBelowOne(0.5)
            ),
            (
                "cap below base", { () throws(PolicyError) in try BackoffPolicy(base: .seconds(1), cap: .ms(500)) },
                .capBelowBase(cap: .ms(500), base: .seconds(1))
            ),
            (
                "no attempts", { () throws(PolicyError) in try BackoffPolicy(budget: .maxAttempts(0)) },
                .noAttempts(.maxAttempts(0))
            ),
            (
                "factor 1", { () throws(PolicyError) in try BackoffPolicy(jitter: .decorrelated(factor: 1)) },
                .decorrelatedFactorNotAboveOne(1)
            ),
        ]
        for (name, make, expected) in cases {
            #expect(throws: expected, "\(name)") { try make() }
        }
        #expect(throws: PolicyError.self) { try BackoffPolicy(schedule: .exponential(multiplier: .nan)) }
        #expect(throws: PolicyError.self) { try BackoffPolicy(schedule: .exponential(multiplier: .infinity)) }
    }

    /// 1 s x 10^99 overflows no Double but far exceeds virtual time: rejected, unless a cap bounds it.
    @Test func overflowingWaitsAreRejectedUnlessCapped() throws {
        #expect {
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 10), cap: nil, budget: .maxAttempts(100))
        } throws: { error in
            guard case .waitsOverflow = error as? PolicyError else { return false }
            return true
        }
        #expect(throws: PolicyError.self) {
            try BackoffPolicy(
                base: .seconds(1), schedule: .exponential(multiplier: 1e300), cap: nil, budget: .maxAttempts(5))
        }
        let capped = try BackoffPolicy(
            base: .seconds(1), schedule: .exponential(multiplier: 10), cap: .seconds(60), budget: .maxAttempts(1000))
        let mean = try #require(capped.expectedTotalWait)
        #expect(mean.isFinite && mean == 1 + 10 + 997 * 60)
        var source = ScriptedUniforms([0.5])
        #expect(drawWaits(capped, using: &source).allSatisfy { $0 <= 60_000_000_000 })
    }
}
