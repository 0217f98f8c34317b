import BackoffPolicies
import Testing

@testable import RetrySimulation

/// ``ClosedForms`` gathers a run's closed forms by mean: present with a value, present without one
/// (no closed form there), or absent (the run has no such mean).
@Suite struct ClosedFormsTests {
    @Test func aPolicysFormsAreItsMeanTotalWaitOnly() throws {
        // No jitter, b = 100 ms, m = 2, 4 attempts: 0.1 + 0.2 + 0.4 = 0.7 s.
        let policy = try BackoffPolicy(base: .milliseconds(100), cap: nil, budget: .maxAttempts(4))
        let forms = ClosedForms(policy: policy)
        #expect(forms[.meanTotalWait] == .some(.some(try #require(policy.totalWaitMoments?.mean))))
        #expect(abs(try #require(forms[.meanTotalWait] ?? nil) - 0.7) < 1e-12)
        #expect(forms[.attemptsPerClient] == nil)
    }

    @Test func aScenariosFormsAreItsClosedFormsAndSuccessesCountClients() throws {
        // Bernoulli failures with p = 0.5 and 3 attempts: a request succeeds with 1 - 0.5^3 = 0.875.
        let scenario = try Scenario(
            clients: 1_000, server: .bernoulli(failureProbability: 0.5),
            policy: try BackoffPolicy(budget: .maxAttempts(3)), bucketWidth: .milliseconds(10))
        let form = try #require(scenario.closedForm)
        let forms = ClosedForms(scenario: scenario, hedge: false)
        #expect(forms[.attemptsPerClient] == .some(.some(form.attemptsPerClient)))
        #expect(forms[.meanTotalWait] == .some(.some(form.meanTotalWait)))
        #expect(abs(try #require(forms[.successes] ?? nil) - 875) < 1e-9)
        // Without `hedge` the hedge's means are absent; with it, present and empty (no hedge here).
        #expect(forms[.copiesPerRequest] == nil)
        #expect(ClosedForms(scenario: scenario, hedge: true)[.copiesPerRequest] == .some(nil))
    }
}
