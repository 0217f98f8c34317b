import BackoffPolicies
import Foundation
import Stochastics
import Testing

@testable import RetrySimulation

/// The closed forms of hedged requests (``Hedging``) against the reference values, derived
/// outside the project, and against draws of the definition itself.
@Suite struct HedgingTests {
    static let seed: UInt64 = 20_261_203
    static let second = 1e9

    static func seconds(_ value: Double) -> Duration { .nanoseconds(Int64((value * second).rounded())) }

    /// Exp(1) s, 2 copies, the second at the p95 (ln 20): E[R] = 0.95 + 0.05/2 = 0.975, copies
    /// 1 + 1/20 = 1.05; work 1.05 kept, and exactly 1 = E[T] cancelled, as for every d and n
    /// (memorylessness: each running copy finishes at rate μ, and one answer ends them all).
    @Test func exponentialService() throws {
        let service = ServiceTime.exponential(mean: .seconds(1))
        let hedge = try Hedging(delay: Self.seconds(log(20)), copies: 2)
        #expect(abs(hedge.expectedResponse(service) / Self.second - 0.975) < 1e-9)
        #expect(abs(hedge.expectedCopies(service) - 1.05) < 1e-9)
        #expect(abs(hedge.expectedWork(service, cancelling: false) / Self.second - 1.05) < 1e-9)
        #expect(abs(hedge.expectedWork(service, cancelling: true) / Self.second - 1) < 1e-9)
        for (delay, copies) in [(0.0, 3), (0.3, 3), (2.0, 5)] {
            let other = try Hedging(delay: Self.seconds(delay), copies: copies)
            let work = other.expectedWork(service, cancelling: true) / Self.second
            #expect(abs(work - 1) < 1e-9, "d \(delay), n \(copies): cancelled work \(work)")
        }
    }

    /// Lognormal(0, 1) s, 2 copies, the second at its p95 e^1.6449 = 5.180 s: E[R] = 1.530, copies
    /// 1.05, work 1.580 cancelled (below E[T] = e^0.5 = 1.6487) and 1.731 kept. The reference
    /// values have 3 decimals: tolerance 5e-4.
    @Test func lognormalService() throws {
        let mean = exp(0.5)
        let sd = ((exp(1.0) - 1) * exp(1.0)).squareRoot()
        let service = ServiceTime.lognormal(mean: Self.seconds(mean), standardDeviation: Self.seconds(sd))
        let hedge = try Hedging(delay: Self.seconds(exp(1.644_853_6)), copies: 2)
        #expect(abs(hedge.expectedResponse(service) / Self.second - 1.530) < 5e-4)
        #expect(abs(hedge.expectedCopies(service) - 1.05) < 5e-4)
        #expect(abs(hedge.expectedWork(service, cancelling: true) / Self.second - 1.580) < 5e-4)
        #expect(abs(hedge.expectedWork(service, cancelling: false) / Self.second - 1.731) < 5e-4)
    }

    /// grpc-java's hedging example: slow 10 s, 5 s, 2 s with probabilities 1, 4, 5 %, else at once;
    /// 3 copies 1 s apart. Copies 1 + 0.1 + 0.1 × 0.05 = 1.105; answered by 1.5 s: 1 − 0.1 × 0.1 =
    /// 0.99, by 2.5 s: 1 − 0.05 × 0.1 × 0.1 = 0.9995 (between the atoms, never on one).
    @Test func grpcJavasExample() throws {
        let service = ServiceTime.mixture([
            .init(weight: 0.90, time: .deterministic(.zero)), .init(weight: 0.05, time: .deterministic(.seconds(2))),
            .init(weight: 0.04, time: .deterministic(.seconds(5))),
            .init(weight: 0.01, time: .deterministic(.seconds(10))),
        ])
        try ServerModel.capacity(CapacityModel(workers: 1, serviceTime: service, queueLimit: 0)).validate()
        let hedge = try Hedging(delay: .seconds(1), copies: 3)
        #expect(abs(hedge.expectedCopies(service) - 1.105) < 1e-12)
        #expect(abs(1 - hedge.responseSurvival(service, atNanoseconds: 1.5 * Self.second) - 0.99) < 1e-12)
        #expect(abs(1 - hedge.responseSurvival(service, atNanoseconds: 2.5 * Self.second) - 0.9995) < 1e-12)
        // E[R] sums the steps of P(R > t) second by second: 0.1, 0.01, 0.05 × 0.1 × 0.1, 0.05 × 0.05 × 0.1,
        // 0.05³, 0.01 × 0.05², 0.01² × 0.05, then 0.01³ for 3 s: 0.110908.
        #expect(abs(hedge.expectedResponse(service) / Self.second - 0.110_908) < 1e-9)
    }

    /// The forms against the definition drawn: 200,000 requests of n copies, copy k's time drawn
    /// through GSL, R = min_k ((k−1)d + T_k), copies = #{k: (k−1)d < R}, work kept Σ T_k over the
    /// copies sent, cancelled Σ (R − (k−1)d). Each mean has standard error s/√N from the sample's
    /// own standard deviation; tolerance 4 SE.
    @Test(arguments: [("lognormal", 0.8, 3), ("exponential", 0.5, 2), ("mixture", 0.05, 4)])
    func theFormsMatchDrawsOfTheDefinition(kind: String, delay: Double, copies: Int) throws {
        let random = try RandomGenerator(seed: Self.seed)
        let service: ServiceTime
        let draw: () -> Double
        switch kind {
        case "lognormal":
            service = .lognormal(mean: .milliseconds(200), standardDeviation: .milliseconds(400))
            let (mu, sigma) = service.logParameters
            draw = { random.lognormal(mu: mu, sigma: sigma) }
        case "exponential":
            service = .exponential(mean: .milliseconds(300))
            draw = { random.exponential(mean: 0.3 * Self.second) }
        default:
            service = .mixture([
                .init(weight: 0.7, time: .exponential(mean: .milliseconds(10))),
                .init(weight: 0.3, time: .deterministic(.milliseconds(100))),
            ])
            draw = { random.uniform() < 0.7 ? random.exponential(mean: 0.01 * Self.second) : 0.1 * Self.second }
        }
        let hedge = try Hedging(delay: Self.seconds(delay), copies: copies)
        let d = delay * Self.second
        let n = 200_000
        var sums = [Double](repeating: 0, count: 4)
        var squares = [Double](repeating: 0, count: 4)
        for _ in 0..<n {
            let times = (0..<copies).map { _ in draw() }
            let response = times.enumerated().map { Double($0.offset) * d + $0.element }.min()!
            let sent = (0..<copies).filter { Double($0) * d < response || $0 == 0 }
            let values = [
                response, Double(sent.count), sent.reduce(0) { $0 + times[$1] },
                sent.reduce(0) { $0 + response - Double($1) * d },
            ]
            for (index, value) in values.enumerated() {
                sums[index] += value
                squares[index] += value * value
            }
        }
        let formulas = [
            hedge.expectedResponse(service), hedge.expectedCopies(service),
            hedge.expectedWork(service, cancelling: false), hedge.expectedWork(service, cancelling: true),
        ]
        for (index, name) in ["response", "copies", "work kept", "work cancelled"].enumerated() {
            let mean = sums[index] / Double(n)
            let standardError = ((squares[index] / Double(n) - mean * mean) / Double(n)).squareRoot()
            #expect(
                abs(mean - formulas[index]) <= 4 * standardError + 1e-9 * formulas[index],
                "seed \(Self.seed), \(kind): \(name) drawn \(mean), formula \(formulas[index]), SE \(standardError)")
        }
    }
}
