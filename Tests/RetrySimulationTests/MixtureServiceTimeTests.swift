import BackoffPolicies
import Testing

@testable import RetrySimulation

/// A mixture of service times, as the capacity server draws it: each attempt picks a component
/// with one uniform of its client's stream, then draws the component's time.
@Suite struct MixtureServiceTimeTests {
    static let seed: UInt64 = 20_261_204

    /// 0.7 Exp(10 ms) + 0.3 fixed 100 ms: mean 0.037 s, E[T²] = 0.7 × 2 × 0.01² + 0.3 × 0.1² =
    /// 0.00314 s², so sd 0.04208 s. With a worker for every client nobody waits, and the mean
    /// completion of N = 20,000 single attempts has standard error sd/√N = 0.000298 s. Tolerance 4 SE.
    @Test func theCapacityServerDrawsEachComponentInItsShare() throws {
        let service = ServiceTime.mixture([
            .init(weight: 0.7, time: .exponential(mean: .milliseconds(10))),
            .init(weight: 0.3, time: .deterministic(.milliseconds(100))),
        ])
        #expect(service.mean == .milliseconds(37))
        #expect(abs(service.survival(atNanoseconds: 50e6) - (0.7 * 0.006_737_947 + 0.3)) < 1e-9)
        let scenario = try Scenario(
            clients: 20_000, server: .capacity(CapacityModel(workers: 20_000, serviceTime: service, queueLimit: 0)),
            policy: try BackoffPolicy(budget: .maxAttempts(1)), bucketWidth: .milliseconds(10))
        let report = try scenario.run(seed: Self.seed)
        let tolerance = 4 * 0.042_083 / 20_000.0.squareRoot()
        #expect(
            abs(report.meanCompletion - 0.037) <= tolerance,
            "seed \(Self.seed): mean completion \(report.meanCompletion), expected 0.037 ± \(tolerance)")
        #expect(report.successes == 20_000)
    }

    /// Weights that do not sum to 1, a nested mixture, or a negative weight are refused by name.
    @Test func aMixtureIsValidated() {
        func refusal(_ parts: [ServiceTime.Component]) -> SimulationError? {
            do {
                try ServerModel.capacity(CapacityModel(workers: 1, serviceTime: .mixture(parts), queueLimit: 0))
                    .validate()
                return nil
            } catch { return error }
        }
        let fast = ServiceTime.deterministic(.milliseconds(1))
        #expect(refusal([.init(weight: 0.5, time: fast)]) == .invalidMixture("the weights must sum to 1, got 0.5"))
        #expect(refusal([.init(weight: 1, time: .mixture([.init(weight: 1, time: fast)]))]) != nil)
        #expect(refusal([.init(weight: -0.5, time: fast), .init(weight: 1.5, time: fast)]) != nil)
        #expect(refusal([]) != nil)
        #expect(refusal([.init(weight: 0.25, time: fast), .init(weight: 0.75, time: .deterministic(.zero))]) == nil)
    }
}
