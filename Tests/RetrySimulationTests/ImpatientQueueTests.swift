import BackoffPolicies
import EventSimulation
import Testing

@testable import RetrySimulation

/// A capacity server that drops expired work (``CapacityModel/dropsExpired``) against the M/M/1+D
/// queue's closed form (``ImpatientQueue``), and the closed form against its own limits.
@Suite struct ImpatientQueueTests {
    /// One worker, exponential service of mean 1/μ, an unbounded queue, Poisson arrivals, one
    /// attempt with a timeout of D.
    func scenario(rate: Double, serviceMean: Duration, patience: Duration, drops: Bool = true) throws -> Scenario {
        let policy = try BackoffPolicy(jitter: .disabled, budget: .maxAttempts(1))
        let model = CapacityModel(
            workers: 1, serviceTime: .exponential(mean: serviceMean), queueLimit: 100_000_000, dropsExpired: drops)
        return try Scenario(
            clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
            arrivals: .poisson(ratePerSecond: rate, duration: .seconds(300)), attemptTimeout: patience)
    }

    /// Each share, measured over 16 independent runs of 300 s (about 36,000 requests each at
    /// 120/s), against the closed form: runs are independent where requests in one run are not, so
    /// the standard error is the runs' sd / √16, and the mean of 16 runs is within t(15, 0.9995) =
    /// 4.07 of them unless the model is wrong (a false alarm once in 1,000 per share). The runs
    /// start empty; the warm-up lasts a few service times, a bias below 0.1 % of 300 s.
    @Test(arguments: [(120.0, 50.0), (80.0, 20.0), (100.0, 30.0)])
    func theDroppingServerMatchesTheClosedForm(rate: Double, patienceMilliseconds: Double) throws {
        let patience = Duration.milliseconds(patienceMilliseconds)
        let model = try #require(
            ImpatientQueue(arrivalRate: rate, serviceRate: 100, patience: patienceMilliseconds / 1e3))
        let scenario = try scenario(rate: rate, serviceMean: .milliseconds(10), patience: patience)
        try SixteenRuns.expectShares(
            of: scenario, answered: model.answeredFraction, dropped: model.droppedFraction, late: model.lateFraction,
            "λ = \(rate), D = \(patienceMilliseconds) ms")
    }

    /// Without the check, the same work is served late instead: nothing is dropped, and more is
    /// wasted than the dropping server wastes and drops together would suggest is served.
    @Test func withoutTheCheckExpiredWorkIsServed() throws {
        let patience = Duration.milliseconds(50)
        let serving = try scenario(rate: 120, serviceMean: .milliseconds(10), patience: patience, drops: false)
            .run(seed: 3)
        let dropping = try scenario(rate: 120, serviceMean: .milliseconds(10), patience: patience).run(seed: 3)
        #expect(serving.expiredDrops == 0 && dropping.expiredDrops > 0)
        // Serving work nobody waits for past saturation makes every wait longer: fewer answered.
        #expect(serving.successes < dropping.successes / 2, "seed 3: \(serving.successes) and \(dropping.successes)")
        #expect(serving.wastedWork > dropping.wastedWork + dropping.expiredDrops / 2)
    }

    /// A hedge's copies and a layer's attempts reach the dropping server too: every request ends,
    /// and the drops are counted at the driver.
    @Test func hedgesAndLayersEndEveryRequestWithTheCheck() throws {
        let policy = try BackoffPolicy(base: .milliseconds(5), jitter: .full, budget: .maxAttempts(3))
        func server(replicas: Int) -> ServerModel {
            .capacity(
                CapacityModel(
                    workers: 1, serviceTime: .exponential(mean: .milliseconds(10)), queueLimit: 1_000,
                    replicas: replicas, dropsExpired: true))
        }
        let hedged = try Scenario(
            clients: 400, server: server(replicas: 2), policy: policy, bucketWidth: .milliseconds(100),
            attemptTimeout: .milliseconds(40),
            hedging: Hedging(delay: .milliseconds(5), copies: 2, cancelsLosers: false))
        let layered = try Scenario(
            clients: 400, server: server(replicas: 1), policy: policy, bucketWidth: .milliseconds(100),
            layers: [try ServiceLayer(name: "api", policy: policy, timeout: .milliseconds(30))])
        for (name, scenario) in [("hedged", hedged), ("layered", layered)] {
            let report = try scenario.run(seed: 9)
            #expect(report.expiredDrops > 0, "\(name), seed 9")
            #expect(report.successes + report.giveUps == report.uniqueRequests, "\(name), seed 9")
        }
    }

    /// The closed form at its edges: λ = μ (the integral's limit), no patience (every arrival that
    /// finds the worker busy is dropped: the Erlang loss system, P₀ = 1/(1 + ρ)), and a large
    /// overload whose exponent would overflow.
    @Test func theClosedFormHoldsAtItsEdges() throws {
        let balanced = try #require(ImpatientQueue(arrivalRate: 100, serviceRate: 100, patience: 0.05))
        let near = try #require(ImpatientQueue(arrivalRate: 100 + 1e-7, serviceRate: 100, patience: 0.05))
        #expect(abs(balanced.answeredFraction - near.answeredFraction) < 1e-8)
        let impatient = try #require(ImpatientQueue(arrivalRate: 50, serviceRate: 100, patience: 0))
        #expect(abs(impatient.idleProbability - 1 / 1.5) < 1e-15)
        #expect(abs(impatient.droppedFraction - 0.5 / 1.5) < 1e-15 && abs(impatient.answeredFraction) < 1e-15 + 0)
        let flooded = try #require(ImpatientQueue(arrivalRate: 1e6, serviceRate: 1, patience: 1_000))
        #expect(flooded.droppedFraction.isFinite && flooded.answeredFraction >= 0 && flooded.answeredFraction < 1e-5)
        #expect(ImpatientQueue(arrivalRate: 0, serviceRate: 1, patience: 1) == nil)
        #expect(ImpatientQueue(arrivalRate: 1, serviceRate: .nan, patience: 1) == nil)
        #expect(ImpatientQueue(arrivalRate: 1, serviceRate: 1, patience: -1) == nil)
    }
}
