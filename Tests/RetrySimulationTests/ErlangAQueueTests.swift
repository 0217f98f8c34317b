import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// Exponential patience (``Scenario/patience``) against the Erlang-A queue's closed form
/// (``ErlangAQueue``), and the closed form against its limits, Erlang B and Erlang C.
@Suite struct ErlangAQueueTests {
    /// c workers of exponential service of mean 10 ms, an unbounded queue that drops expired work,
    /// Poisson arrivals for 300 s, one attempt per request with an exponential patience.
    func scenario(rate: Double, workers: Int, patience: Duration) throws -> Scenario {
        let policy = try BackoffPolicy(jitter: .disabled, budget: .maxAttempts(1))
        let model = CapacityModel(
            workers: workers, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 100_000_000,
            dropsExpired: true)
        return try Scenario(
            clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
            arrivals: .poisson(ratePerSecond: rate, duration: .seconds(300)), patience: patience)
    }

    /// Each share over 16 independent runs of 300 s (18,000 to 75,000 requests each) against the
    /// closed form: the runs are independent where one run's requests are not, so the standard
    /// error is the runs' sd / √16, and their mean lies within t(15, 0.9995) = 4.07 of them unless
    /// the model is wrong (a false alarm once in 1,000 per share). The runs start empty; the
    /// warm-up lasts a few service times, a bias below 0.1 % of 300 s.
    @Test(arguments: [(120.0, 1, 50.0), (250.0, 3, 100.0), (150.0, 2, 20.0), (60.0, 1, 200.0)])
    func theDroppingServerMatchesErlangA(rate: Double, workers: Int, patienceMilliseconds: Double) throws {
        let model = try #require(
            ErlangAQueue(
                arrivalRate: rate, serviceRate: 100, patienceRate: 1e3 / patienceMilliseconds, workers: workers))
        let scenario = try scenario(rate: rate, workers: workers, patience: .milliseconds(patienceMilliseconds))
        try SixteenRuns.expectShares(
            of: scenario, answered: model.answeredFraction, dropped: model.droppedFraction, late: model.lateFraction,
            "λ = \(rate), c = \(workers), 1/θ = \(patienceMilliseconds) ms")
    }

    /// Erlang B (a = λ/μ): B(0) = 1, B(k) = a B(k−1) / (k + a B(k−1)); Erlang C from it.
    static func erlangB(_ a: Double, _ c: Int) -> Double {
        (1...c).reduce(1.0) { b, k in a * b / (Double(k) + a * b) }
    }

    /// Impatience without end is the loss system: a caller who finds every worker busy leaves at
    /// once, so P(dropped) is Erlang B's blocking. Patience without end under a load below c is
    /// Erlang C: nobody leaves, and the share delayed is Erlang C's.
    @Test func theClosedFormMeetsErlangBAndC() throws {
        for (a, c) in [(0.8, 1), (2.5, 3), (15.0, 20)] {
            let blocking = Self.erlangB(a, c)
            let impatient = try #require(
                ErlangAQueue(arrivalRate: a * 100, serviceRate: 100, patienceRate: 1e12, workers: c))
            #expect(abs(impatient.droppedFraction - blocking) < 1e-8, "a = \(a), c = \(c)")
            let patient = try #require(
                ErlangAQueue(arrivalRate: a * 100, serviceRate: 100, patienceRate: 1e-9, workers: c))
            let erlangC = Double(c) * blocking / (Double(c) - a * (1 - blocking))
            #expect(patient.droppedFraction < 1e-8, "a = \(a), c = \(c): \(patient.droppedFraction)")
            #expect(abs(patient.delayedFraction - erlangC) < 1e-6, "a = \(a), c = \(c): \(patient.delayedFraction)")
        }
    }

    /// A large system does not overflow (2,000 workers at 90 % load), the shares add up, and
    /// parameters out of range give no queue.
    @Test func theClosedFormHoldsAtItsEdges() throws {
        let large = try #require(ErlangAQueue(arrivalRate: 1_800, serviceRate: 1, patienceRate: 2, workers: 2_000))
        #expect(large.droppedFraction >= 0 && large.droppedFraction < 1e-3, "\(large.droppedFraction)")
        #expect(abs(large.answeredFraction + large.lateFraction + large.droppedFraction - 1) < 1e-12)
        let flooded = try #require(ErlangAQueue(arrivalRate: 1e6, serviceRate: 1, patienceRate: 1, workers: 1))
        #expect(flooded.droppedFraction > 0.99 && flooded.droppedFraction < 1)
        #expect(ErlangAQueue(arrivalRate: 0, serviceRate: 1, patienceRate: 1, workers: 1) == nil)
        #expect(ErlangAQueue(arrivalRate: 1, serviceRate: .nan, patienceRate: 1, workers: 1) == nil)
        #expect(ErlangAQueue(arrivalRate: 1, serviceRate: 1, patienceRate: 0, workers: 1) == nil)
        #expect(ErlangAQueue(arrivalRate: 1, serviceRate: 1, patienceRate: 1, workers: 0) == nil)
    }

    /// The patience is drawn anew for each attempt, so two attempts rarely wait alike; it replaces
    /// a fixed timeout and needs a queue.
    @Test func patienceIsValidated() throws {
        let policy = try BackoffPolicy()
        let capacity = ServerModel.capacity(
            CapacityModel(workers: 1, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 10))
        #expect(throws: SimulationError.nonPositivePatience) {
            try Scenario(clients: 1, server: capacity, policy: policy, bucketWidth: .seconds(1), patience: .zero)
        }
        #expect(throws: SimulationError.patienceAndTimeout) {
            try Scenario(
                clients: 1, server: capacity, policy: policy, bucketWidth: .seconds(1),
                attemptTimeout: .milliseconds(5), patience: .milliseconds(5))
        }
        #expect(throws: SimulationError.patienceWithoutQueue) {
            try Scenario(
                clients: 1, server: .alwaysFail, policy: policy, bucketWidth: .seconds(1), patience: .milliseconds(5))
        }
    }
}
