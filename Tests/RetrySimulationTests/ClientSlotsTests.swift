import BackoffPolicies
import EventSimulation
import Stochastics
import Testing

@testable import RetrySimulation

/// An event-ordered run keeps the sessions in flight, not every session: arrivals are drawn as the
/// run reaches them, and a session's slot passes to a new session once the old one has ended and
/// the server holds none of its attempts. That the numbers are those of a run keeping a slot per
/// session, `EngineAgreementTests` checks on three capacity scenarios; here, that slots are reused.
@Suite struct ClientSlotsTests {
    @Test func aSlotIsFreeOnceItsSessionEndedAndItsAttemptsAreReleased() {
        var slots = ClientSlots(recycles: true)
        let first = slots.take(session: 0)
        let second = slots.take(session: 1)
        #expect((first, second) == (0, 1))
        slots.attemptReceived(first)
        slots.sessionEnded(first)  // an attempt still queued at the server
        #expect(slots.take(session: 2) == 2, "a slot whose attempt the server holds was reused")
        slots.attemptReleased(first)
        #expect(slots.take(session: 3) == first)
        #expect(slots.session(of: first) == 3 && slots.session(of: second) == 1)
        #expect(slots.count == 3 && !slots.allFree)
        for slot in [first, second, 2] { slots.sessionEnded(slot) }
        #expect(slots.allFree)
        slots.deallocate()
    }

    @Test func withoutRecyclingSessionIsSlot() {
        var slots = ClientSlots(recycles: false)
        for session in 0..<5 { #expect(slots.take(session: session) == session) }
        slots.sessionEnded(2)
        #expect(slots.take(session: 5) == 5 && slots.session(of: 4) == 4 && slots.count == 6)
    }

    /// Poisson arrivals drawn one at a time are the arrivals drawn ahead, one for one.
    @Test(arguments: [
        Arrivals.burst, .uniform(window: .seconds(3)), .poisson(ratePerSecond: 2500, duration: .seconds(2)),
    ])
    func arrivalsDrawnAsTheRunGoesAreTheArrivalsDrawnAhead(_ arrivals: Arrivals) throws {
        let scenario = try Scenario(
            clients: 700, server: .alwaysFail, policy: EngineAgreementTests.policy(.full),
            bucketWidth: .milliseconds(10), arrivals: arrivals)
        let ahead = try scenario.arrivalTimes(seed: 42, algorithm: .standard)
        for drawsAsItGoes in [false, true] {
            var sequence = try ArrivalSequence(scenario, seed: 42, algorithm: .standard, drawsAsItGoes: drawsAsItGoes)
            #expect(sequence.count == ahead.count && ahead.count > 0)
            var drawn: [Int64] = []
            while let start = sequence.next() { drawn.append(start) }
            #expect(drawn == ahead, "drawn as the run goes: \(drawsAsItGoes)")
        }
    }

    /// 40,000 Poisson sessions at 2,000 a second, each lasting well under a second, in a few
    /// thousand slots at most: the run holds what is in flight.
    @Test func aLongOpenRunHoldsTheSessionsInFlight() throws {
        let scenario = try Scenario(
            clients: 1,
            server: .capacity(
                CapacityModel(workers: 4, serviceTime: .exponential(mean: .milliseconds(1.5)), queueLimit: 50)),
            policy: EngineAgreementTests.policy(.full), bucketWidth: .milliseconds(100),
            arrivals: .poisson(ratePerSecond: 2000, duration: .seconds(20)), attemptTimeout: .milliseconds(50))
        #expect(scenario.recyclesClients)
        let arrivals = try ArrivalSequence(scenario, seed: 9, algorithm: .standard, drawsAsItGoes: true)
        var run = ScenarioRun<CapacityServer, NoLimits>(
            scenario: scenario, sessions: arrivals.count, seed: 9, eventOrdered: true, recyclesClients: true)
        let report = try run.runEventOrdered(arrivals)
        #expect(report.clients == arrivals.count && arrivals.count > 39_000)
        #expect(run.slots.count < 2_000, "\(run.slots.count) slots for \(arrivals.count) sessions")
        #expect(run.slots.allFree)
    }

    /// The same for a server that answers at once, made event-ordered by a shared retry budget:
    /// 40,000 sessions of up to 4 attempts against Bernoulli failures in a few hundred slots. Without
    /// the budget the clients run one after the other, with no slots, and the client limit stays.
    @Test func aServerThatAnswersAtOnceReusesSlotsUnderSharedLimits() throws {
        let budget = RetryLimits(budget: .tokenBucket(try TokenBucketBudget(maxTokens: 10, tokenRatio: 0.1)))
        let scenario = try Scenario(
            clients: 1, server: .bernoulli(failureProbability: 0.3), policy: EngineAgreementTests.policy(.full),
            bucketWidth: .milliseconds(100), arrivals: .poisson(ratePerSecond: 2000, duration: .seconds(20)),
            limits: budget)
        #expect(scenario.recyclesClients && !scenario.runsClientByClient)
        let arrivals = try ArrivalSequence(scenario, seed: 9, algorithm: .standard, drawsAsItGoes: true)
        var run = ScenarioRun<InstantServer, LimitsInForce>(
            scenario: scenario, sessions: arrivals.count, seed: 9, eventOrdered: true, recyclesClients: true)
        let report = try run.runEventOrdered(arrivals)
        #expect(report.clients == arrivals.count && arrivals.count > 39_000 && report.attempts > arrivals.count)
        #expect(run.slots.count < 2_000, "\(run.slots.count) slots for \(arrivals.count) sessions")
        #expect(run.slots.allFree)
        let hour = Arrivals.poisson(ratePerSecond: 90_000, duration: .seconds(3600))
        let long = try Scenario(
            clients: 1, server: .bernoulli(failureProbability: 0.3), policy: EngineAgreementTests.policy(.full),
            bucketWidth: .seconds(1), arrivals: hour, limits: budget)
        #expect(long.recyclesClients && long.memoryEstimate.bytes < 512 * 1_048_576, "\(long.memoryEstimate.bytes)")
        let independent = try Scenario(
            clients: 1, server: .bernoulli(failureProbability: 0.3), policy: EngineAgreementTests.policy(.full),
            bucketWidth: .milliseconds(100), arrivals: .poisson(ratePerSecond: 2000, duration: .seconds(1)))
        #expect(!independent.recyclesClients && independent.runsClientByClient)
    }

    /// An hour at 90,000 requests a second (324 million sessions) passes the client limit where slots
    /// are reused, and is refused, naming the limit, where every session keeps its slot.
    @Test func onlyARunThatReusesSlotsTakesMoreArrivalsThanTheClientLimit() throws {
        let capacity = CapacityModel(
            workers: 2000, serviceTime: .exponential(mean: .milliseconds(20)), queueLimit: 10_000)
        let hour = Arrivals.poisson(ratePerSecond: 90_000, duration: .seconds(3600))
        let policy = try EngineAgreementTests.policy(.full)
        let reused = try Scenario(
            clients: 1, server: .capacity(capacity), policy: policy, bucketWidth: .seconds(1), arrivals: hour,
            attemptTimeout: .seconds(1))
        #expect(reused.recyclesClients)
        // The estimate charges the sessions in flight (90,000 a second for at most a session's
        // length), not 324 million.
        #expect(reused.memoryEstimate.bytes < 512 * 1_048_576, "\(reused.memoryEstimate.bytes) bytes")
        #expect(throws: SimulationError.tooManyArrivals(expected: 324_000_000, limit: Scenario.maximumClients)) {
            try Scenario(
                clients: 1,
                server: .capacity(
                    CapacityModel(
                        workers: 2000, serviceTime: .exponential(mean: .milliseconds(20)), queueLimit: 10_000,
                        replicas: 2)),
                policy: policy, bucketWidth: .seconds(1), arrivals: hour, attemptTimeout: .seconds(1))
        }
        #expect(throws: SimulationError.tooManyArrivals(expected: 324_000_000, limit: Scenario.maximumClients)) {
            try Scenario(clients: 1, server: .alwaysFail, policy: policy, bucketWidth: .seconds(1), arrivals: hour)
        }
    }
}
