import Testing

@testable import BackoffPolicies

/// A policy keeps its first nominal waits in a table (64 for the modes that build their own
/// schedule, 1024 for the others) and computes later ones by the same formula, so the table's
/// length changes no value: e_k is min(table cap, b m^(k-1)) on both sides of its end.
@Suite struct NominalTableTests {
    @Test(arguments: [
        Jitter.decorrelated(factor: 3), .decorrelatedMonotone(factor: 3), .full, .equal, .disabled,
    ])
    func theTableChangesNoNominalWait(jitter: Jitter) throws {
        for (multiplier, capMode) in [(2.0, nil), (1.001, nil), (1.001, CapMode.clamp)] as [(Double, CapMode?)] {
            guard capMode == nil || jitter.capModes.contains(capMode!) else { continue }
            let policy = try BackoffPolicy(
                base: .milliseconds(5), schedule: .exponential(multiplier: multiplier), cap: .seconds(2),
                jitter: jitter, capMode: capMode, budget: .maxAttempts(100_000))
            #expect(policy._nominalWaits.count <= BackoffPolicy.nominalTableLength(jitter))
            for k in [1, 2, 63, 64, 65, 66, 500, 1023, 1024, 1025, 1026, 4000, 99_999] {
                let formula = min(
                    policy._tableCap,
                    BackoffPolicy.uncappedWait(policy.schedule, base: policy._base, beforeRetry: k))
                #expect(
                    policy.windowNominal(beforeRetry: k) == formula,
                    "\(jitter), m = \(multiplier), \(String(describing: capMode)), retry \(k)")
            }
        }
    }

    @Test func modesThatBuildTheirOwnScheduleKeepAShortTable() throws {
        let policy = try BackoffPolicy(
            base: .milliseconds(5), cap: .seconds(2), jitter: .decorrelated(factor: 3), capMode: .clamp,
            budget: .maxAttempts(100_000))
        #expect(policy._nominalWaits.count == 64, "a clamp-mode table does not reach the cap")
    }
}
