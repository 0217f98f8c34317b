import BackoffPolicies
import Foundation
import Testing

@testable import RetrySimulation

/// The retrial queue's chain against the closed forms it contains (Erlang B and C, M/M/1/K, the
/// M/M/1 retrial queue), its truncation, and which scenarios it stands for.
@Suite struct RetrialQueueTests {
    static func erlangB(_ a: Double, _ c: Int) -> Double {
        (1...c).reduce(1.0) { b, k in a * b / (Double(k) + a * b) }
    }

    /// No queue and no retries is the loss system: the share lost is Erlang B's, B(c, a).
    @Test(arguments: [(0.8, 1), (2.5, 3), (15.0, 20)])
    func noQueueAndNoRetriesIsErlangB(load: Double, workers: Int) throws {
        let queue = try #require(
            RetrialQueue(arrivalRate: load * 50, serviceRate: 50, workers: workers, queueLimit: 0, retryRates: []))
        let solution = try queue.solve()
        let blocking = Self.erlangB(load, workers)
        #expect(abs(solution.lostFraction - blocking) <= 1e-9, "a = \(load), c = \(workers): \(solution.lostFraction)")
        #expect(abs(solution.fullProbability - blocking) <= 1e-9)
        #expect(abs(solution.utilisation - load * (1 - blocking) / Double(workers)) <= 1e-9)
        #expect(solution.attemptsPerRequest == 1 && solution.meanRetrying == 0)
    }

    /// One worker and K places, no retries (M/M/1/K): P(full) = (1 − ρ) ρ^(K+1) / (1 − ρ^(K+2)).
    @Test(arguments: [(0.5, 3), (1.4, 10), (0.95, 40)])
    func oneWorkerAndAQueueIsMM1K(load: Double, places: Int) throws {
        let queue = try #require(
            RetrialQueue(arrivalRate: load * 10, serviceRate: 10, workers: 1, queueLimit: places, retryRates: []))
        let solution = try queue.solve()
        let full = (1 - load) * pow(load, Double(places + 1)) / (1 - pow(load, Double(places + 2)))
        #expect(abs(solution.fullProbability - full) <= 1e-9 * Swift.max(1, full), "ρ = \(load), K = \(places)")
        #expect(abs(solution.lostFraction - full) <= 1e-9 * Swift.max(1, full))
    }

    /// An unbounded queue and no retries (M/M/c), truncated until its boundary holds under 1e-13:
    /// E[q] = a + C(c, a) ρ / (1 − ρ), with Erlang C's C = c B / (c − a (1 − B)).
    @Test(arguments: [(0.8, 1), (2.5, 3), (15.0, 20)])
    func anUnboundedQueueIsErlangC(load: Double, workers: Int) throws {
        let queue = try #require(
            RetrialQueue(arrivalRate: load * 50, serviceRate: 50, workers: workers, queueLimit: nil, retryRates: []))
        let solution = try queue.solve(boundaryMass: 1e-13)
        let b = Self.erlangB(load, workers)
        let c = Double(workers)
        let erlangC = c * b / (c - load * (1 - b))
        let rho = load / c
        let expected = load + erlangC * rho / (1 - rho)
        #expect(abs(solution.meanAtServer - expected) <= 1e-9 * expected, "a = \(load), c = \(workers)")
        #expect(solution.boundaryMass < 1e-13)
    }

    /// The classic M/M/1 retrial queue (one worker, no queue, every rejected request retries at
    /// rate θ without end): P(busy) = ρ and E[orbit] = ρ²/(1 − ρ) + λρ/(θ(1 − ρ)) (Falin and
    /// Templeton, *Retrial Queues*, 1997, §1.2), to 1e-9 once the boundary holds under 1e-13.
    @Test(arguments: [(0.7, 0.5), (0.3, 5.0), (0.9, 2.0)])
    func theMM1RetrialQueueMatchesFalin(load: Double, retryRate: Double) throws {
        let lambda = load * 4
        let queue = try #require(
            RetrialQueue(
                arrivalRate: lambda, serviceRate: 4, workers: 1, queueLimit: 0, retryRates: [retryRate],
                retriesUnlimited: true))
        let solution = try queue.solve(boundaryMass: 1e-13)
        let orbit = load * load / (1 - load) + lambda * load / (retryRate * (1 - load))
        #expect(abs(solution.utilisation - load) <= 1e-9, "ρ = \(load), θ = \(retryRate): \(solution.utilisation)")
        #expect(
            abs(solution.meanRetrying - orbit) <= 1e-9 * orbit,
            "ρ = \(load), θ = \(retryRate): \(solution.meanRetrying)")
        // Nothing is lost but to the truncation: the flow in is the flow served.
        #expect(solution.lostFraction <= 1e-11)
    }

    /// The truncation grows until the boundary holds less than asked, and answers computed on a
    /// larger one move by no more than the boundary's mass allows (here a tenth of it, measured
    /// 1e-3 of it); a cap on the states that stops the doubling first is an error that says so.
    @Test func theTruncationGrowsUntilItsBoundaryIsEmpty() throws {
        let queue = try #require(
            RetrialQueue(
                arrivalRate: 30, serviceRate: 10, workers: 4, queueLimit: 2, retryRates: [20, 10]))
        let solution = try queue.solve(boundaryMass: 1e-9)
        #expect(solution.boundaryMass < 1e-9 && solution.truncation >= 16)
        let larger = try queue.solve(truncation: solution.truncation * 2)
        #expect(larger.boundaryMass <= solution.boundaryMass)
        #expect(abs(larger.attemptsPerRequest - solution.attemptsPerRequest) <= 1e-8)
        #expect(abs(larger.goodput - solution.goodput) <= 1e-8 * solution.goodput)
        #expect(throws: RetrialQueue.TruncationError.self) { try queue.solve(boundaryMass: 1e-9, maximumStates: 500) }
    }

    /// The next truncation follows the boundary's measured decay, within 1.125 N to 2 N: a
    /// boundary that fell from 1e-3 at N = 16 to 1e-5 at N = 32 decays by 10^(−1/8) a step, so a
    /// quarter of 1e-9, 2.5e-10, is 8 log10(1e-5 / 2.5e-10) = 36.8 steps on: N = 69, capped at 64.
    /// Without a decay measured (a first truncation, or a boundary that grew) N doubles.
    @Test func theNextTruncationFollowsTheBoundarysDecay() {
        let next = RetrialQueue.nextTruncation
        #expect(next((32, 1e-5), (16, 1e-3), 2.5e-10) == 64)
        // From 1e-3 to 1e-7: 10^(−1/4) a step, 4 log10(1e-7 / 2.5e-10) = 10.4 steps: N = 43.
        #expect(next((32, 1e-7), (16, 1e-3), 2.5e-10) == 43)
        // Nearly there: at least N + N / 8.
        #expect(next((32, 3e-10), (16, 1e-3), 2.5e-10) == 36)
        #expect(next((8, 1e-2), nil, 2.5e-10) == 16)
        #expect(next((32, 1e-3), (16, 1e-4), 2.5e-10) == 64)
        #expect(next((32, 0), (16, 1e-4), 2.5e-10) == 64)
    }

    /// Bad parameters build no queue.
    @Test func badParametersBuildNoQueue() {
        #expect(RetrialQueue(arrivalRate: 0, serviceRate: 1, workers: 1, queueLimit: 0, retryRates: []) == nil)
        #expect(RetrialQueue(arrivalRate: .nan, serviceRate: 1, workers: 1, queueLimit: 0, retryRates: []) == nil)
        #expect(RetrialQueue(arrivalRate: 1, serviceRate: .infinity, workers: 1, queueLimit: 0, retryRates: []) == nil)
        #expect(RetrialQueue(arrivalRate: 1, serviceRate: 1, workers: 0, queueLimit: 0, retryRates: []) == nil)
        #expect(RetrialQueue(arrivalRate: 1, serviceRate: 1, workers: 1, queueLimit: -1, retryRates: []) == nil)
        #expect(RetrialQueue(arrivalRate: 1, serviceRate: 1, workers: 1, queueLimit: 0, retryRates: [0]) == nil)
        #expect(
            RetrialQueue(
                arrivalRate: 1, serviceRate: 1, workers: 1, queueLimit: 0, retryRates: [], retriesUnlimited: true)
                == nil)
        #expect(
            RetrialQueue(
                arrivalRate: 1, serviceRate: 1, workers: 1, queueLimit: 0, retryRates: Array(repeating: 1, count: 13))
                == nil)
    }

    /// A scenario is a retrial queue when every time in it is exponential: its stages' rates are
    /// one over the policy's capped nominal waits; anything that keeps time makes it none.
    @Test func aScenarioIsARetrialQueueOnlyWhenMarkovian() throws {
        func scenario(
            jitter: Jitter = .exponential, capMode: CapMode? = nil,
            service: ServiceTime = .exponential(mean: .milliseconds(10)),
            timeout: Duration? = nil, discipline: QueueDiscipline = .fifo, arrivals: Arrivals? = nil
        ) throws -> Scenario {
            let policy = try BackoffPolicy(
                base: .milliseconds(50), cap: .milliseconds(150), jitter: jitter, capMode: capMode,
                budget: .maxAttempts(4))
            let model = CapacityModel(workers: 2, serviceTime: service, queueLimit: 5, queueDiscipline: discipline)
            return try Scenario(
                clients: 1, server: .capacity(model), policy: policy, bucketWidth: .seconds(1),
                arrivals: arrivals ?? .poisson(ratePerSecond: 100, duration: .seconds(10)), attemptTimeout: timeout)
        }
        let queue = try #require(try scenario().retrialQueue)
        #expect(queue.arrivalRate == 100 && queue.serviceRate == 100 && queue.workers == 2 && queue.queueLimit == 5)
        #expect(queue.retryRates == [20, 10, 1 / 0.15] && !queue.retriesUnlimited)
        #expect(try scenario(discipline: .lifo).retrialQueue == queue)
        #expect(try scenario(jitter: .full).retrialQueue == nil)
        #expect(try scenario(capMode: .clamp).retrialQueue == nil)
        #expect(try scenario(service: .deterministic(.milliseconds(10))).retrialQueue == nil)
        #expect(try scenario(timeout: .milliseconds(100)).retrialQueue == nil)
        #expect(
            try scenario(discipline: .controlledDelay(target: .milliseconds(5), interval: .milliseconds(100)))
                .retrialQueue
                == nil)
        #expect(try scenario(arrivals: .burst).retrialQueue == nil)
    }
}
