import BackoffPolicies
import EventSimulation
import Foundation
import Testing

@testable import RetrySimulation

/// The deadline-checking server (``DeadlineServer``), a component of one file: against its closed
/// form, against the capacity server it becomes without deadlines, and with the callers it meets.
@Suite struct DeadlineServerTests {
    static let service = Duration.milliseconds(20)  // μ = 50 a second

    func scenario(
        _ model: DeadlineServer, rate: Double, timeout: Duration?, attempts: Int = 1, seconds: Int64 = 300
    ) throws -> Scenario {
        try Scenario(
            clients: 1, server: .component(AnyServerComponent(model)),
            policy: try BackoffPolicy(base: .milliseconds(10), jitter: .full, budget: .maxAttempts(attempts)),
            bucketWidth: .seconds(1), arrivals: .poisson(ratePerSecond: rate, duration: .seconds(seconds)),
            attemptTimeout: timeout)
    }

    /// One worker, no queue limit, one attempt: the shares answered and dropped over 16 runs of
    /// 300 s against 1 − P(lost) and P(lost) (``SixteenRuns``: t(15) tolerance on the runs' sd),
    /// and nothing served late. Below, at and above saturation (λ = 40, 50, 80 a second, μ = 50).
    @Test(arguments: [(40.0, 50.0), (50.0, 30.0), (80.0, 50.0)])
    func oneWorkerMatchesTheClosedForm(rate: Double, deadlineMilliseconds: Double) throws {
        let deadline = Duration.milliseconds(deadlineMilliseconds)
        let scenario = try scenario(DeadlineServer(meanService: Self.service), rate: rate, timeout: deadline)
        let lost = DeadlineServer.lossProbability(lambda: rate, mu: 50, deadline: deadline)
        let formula = try #require(scenario.closedForm)
        #expect(formula.successFraction == 1 - lost)
        try SixteenRuns.expectShares(
            of: scenario, answered: 1 - lost, dropped: lost, late: 0, "λ = \(rate), D = \(deadlineMilliseconds) ms")
    }

    /// The closed form at its edges: λ → 0 leaves the service alone, P(S > D) = e^(−μD); λ = μ is
    /// 1/(1 + λD), and the form is continuous through it; a long deadline loses nothing below
    /// saturation and λ − μ of λ above it; a huge exponent neither overflows nor gives NaN.
    @Test func theClosedFormAtItsEdges() {
        let d = Duration.milliseconds(50)
        #expect(abs(DeadlineServer.lossProbability(lambda: 1e-9, mu: 50, deadline: d) - exp(-2.5)) < 1e-9)
        #expect(abs(DeadlineServer.lossProbability(lambda: 50, mu: 50, deadline: d) - 1 / 3.5) < 1e-15)
        let near = DeadlineServer.lossProbability(lambda: 50 + 1e-7, mu: 50, deadline: d)
        #expect(abs(near - 1 / 3.5) < 1e-8)
        #expect(DeadlineServer.lossProbability(lambda: 40, mu: 50, deadline: .seconds(100)) < 1e-100)
        let saturated = DeadlineServer.lossProbability(lambda: 80, mu: 50, deadline: .seconds(100))
        #expect(abs(saturated - 30.0 / 80) < 1e-12)
        for lambda in [1e-300, 1e-3, 1e3, 1e300] {
            for deadline in [Duration.nanoseconds(1), .seconds(1), .seconds(1_000_000)] {
                let p = DeadlineServer.lossProbability(lambda: lambda, mu: 50, deadline: deadline)
                #expect(p >= 0 && p <= 1, "λ = \(lambda), D = \(deadline): \(p)")
            }
        }
    }

    /// Without a deadline it is the capacity server of the same workers, queue and exponential
    /// service, draw for draw: the reports are equal, retries on rejection and queue peaks included.
    @Test func withoutADeadlineItIsTheCapacityServer() throws {
        let deadline = try scenario(
            DeadlineServer(workers: 3, meanService: Self.service, queueLimit: 20), rate: 160, timeout: nil,
            attempts: 3, seconds: 60)
        let capacity = try Scenario(
            clients: 1,
            server: .capacity(
                CapacityModel(workers: 3, serviceTime: .exponential(mean: Self.service), queueLimit: 20)),
            policy: deadline.policy, bucketWidth: .seconds(1), arrivals: deadline.arrivals)
        let (a, b) = (try deadline.run(seed: 5), try capacity.run(seed: 5))
        #expect(a.rejected > 0 && a.peakQueue == 20, "seed 5: \(a.rejected) rejected, peak \(a.peakQueue)")
        #expect(a == b, "seed 5")
    }

    /// With a deadline, no worker serves a caller that has gone: the capacity server that drops
    /// expired work before service still finishes work in service past its deadline (wasted);
    /// the deadline server wastes none, and in overload the workers it frees answer more requests.
    @Test func noWorkerServesPastADeadline() throws {
        let timeout = Duration.milliseconds(50)
        let deadline = try scenario(DeadlineServer(meanService: Self.service), rate: 80, timeout: timeout)
        let dropping = try Scenario(
            clients: 1,
            server: .capacity(
                CapacityModel(
                    workers: 1, serviceTime: .exponential(mean: Self.service), queueLimit: 100_000_000,
                    dropsExpired: true)),
            policy: deadline.policy, bucketWidth: .seconds(1), arrivals: deadline.arrivals, attemptTimeout: timeout)
        let (a, b) = (try deadline.run(seed: 7), try dropping.run(seed: 7))
        #expect(a.wastedWork == 0 && b.wastedWork > 0, "seed 7: wasted \(a.wastedWork) and \(b.wastedWork)")
        #expect(a.successes > b.successes, "seed 7: \(a.successes) answered against \(b.successes)")
        #expect(a.successes + a.expiredDrops == a.uniqueRequests, "seed 7")
    }

    /// Behind a stack of layers the server's caller is the bottom layer, whose per-try timeout is
    /// the deadline; with retries and reused slots every request still ends once, and the run that
    /// reuses slots is the run that keeps one a session.
    @Test func callersBeyondTheClient() throws {
        let policy = try BackoffPolicy(base: .milliseconds(5), jitter: .full, budget: .maxAttempts(3))
        let model = DeadlineServer(workers: 2, meanService: Self.service, queueLimit: 50)
        let layered = try Scenario(
            clients: 1, server: .component(AnyServerComponent(model)), policy: policy, bucketWidth: .seconds(1),
            arrivals: .poisson(ratePerSecond: 150, duration: .seconds(20)),
            layers: [try ServiceLayer(name: "api", policy: policy, timeout: .milliseconds(30))])
        let report = try layered.run(seed: 11)
        #expect(report.expiredDrops > 0 && report.wastedWork == 0, "seed 11")
        #expect(report.successes + report.giveUps == report.uniqueRequests, "seed 11")

        let retrying = try scenario(model, rate: 150, timeout: .milliseconds(40), attempts: 3, seconds: 20)
        #expect(ScenarioPath.applicable(to: retrying) == [.slotPerSession, .eventOrdered])
        let reused = try retrying.run(seed: 13, arrivalSeed: nil, algorithm: .standard, path: .eventOrdered)
        let kept = try retrying.run(seed: 13, arrivalSeed: nil, algorithm: .standard, path: .slotPerSession)
        #expect(reused == kept, "seed 13")
        #expect(reused.successes + reused.giveUps == reused.uniqueRequests, "seed 13")
    }

    /// Its text reads back; a bad key, a repeated one or a value not of its form is refused, and
    /// the ranges are the model's to check.
    @Test func itsSpecReadsBackAndRefusesWhatIsNotOfItsForm() throws {
        let model = DeadlineServer(workers: 4, meanService: .milliseconds(7.5), queueLimit: 0)
        #expect(model.specText == "deadline:workers=4:service=7500us:queue=0")
        #expect(DeadlineServer(parameters: "workers=4:service=7.5ms:queue=0") == model)
        #expect(DeadlineServer(parameters: "queue=0:service=7500us:workers=4") == model)
        #expect(DeadlineServer(parameters: nil) == DeadlineServer())
        for bad in [
            "", "workers", "workers=", "workers=x", "workers=-1", "workers=1e3", "service=20", "service=-1ms",
            "queue=1.5", "workers=1:workers=2", "bogus=1", "workers=1:", ":workers=1",
        ] {
            #expect(DeadlineServer(parameters: bad) == nil, "'\(bad)'")
        }
        #expect(throws: SimulationError.noWorkers(0)) { try DeadlineServer(workers: 0).validate() }
        #expect(throws: SimulationError.nonPositiveServiceTime) { try DeadlineServer(meanService: .zero).validate() }
        #expect(throws: SimulationError.negativeQueueLimit(-1)) { try DeadlineServer(queueLimit: -1).validate() }
        // Its queue is in the run's memory estimate, bounded by the sessions a Poisson run expects.
        let poisson = try scenario(model, rate: 1_000, timeout: .seconds(1), seconds: 60)
        let queue = try #require(
            poisson.memoryEstimate.items.first { $0.parameter == "--server deadline:workers=4:service=7500us:queue=0" })
        #expect(queue.bytes == 0, "no queue places, no queue")
        let unlimited = try scenario(DeadlineServer(), rate: 1_000, timeout: .seconds(1), seconds: 60)
        let places = try #require(unlimited.memoryEstimate.items.first { $0.parameter.hasPrefix("--server deadline") })
        #expect(
            places.bytes == unlimited.expectedSessions * 32 && unlimited.expectedSessions > 60_000,
            "one entry per session a Poisson run of 60,000 expected arrivals may hold: \(places.bytes)")
        // A timeout applies to it, as to a capacity server; not to a rate limiter.
        #expect(ServerModel.component(AnyServerComponent(model)).takesTimeouts)
        #expect(!ServerModel.rateLimit(RateLimit(rate: 1)).takesTimeouts)
    }
}
