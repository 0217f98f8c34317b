import BackoffPolicies
import EventSimulation
import Foundation
import Stochastics

/// The event loop of one ``Scenario`` run: a driver that owns the engine, the clients, the server's
/// state and the counters, and carries out what each event means.
///
/// Ties at one instant run in scheduling order, except that timeouts (priority 1) run after the
/// answers due at the same instant (priority 0): an answer that arrives exactly at the deadline counts.
struct ScenarioRun {
    let scenario: Scenario
    let policy: BackoffPolicy
    let behaviour: ClientBehaviour
    var random: RandomGenerator
    var simulation = Simulation<ScenarioEvent>()
    var clients: [SimulatedClient] = []
    var timeline: LoadTimeline

    // Server state: the contention model's version; the capacity model's workers and queue.
    var version: Int64 = 0
    var busyWorkers = 0
    var queue = RingBuffer<(client: Int32, attempt: Int64)>()

    // Counters.
    var attempts = 0, uniqueRequests = 0, successes = 0, giveUps = 0, permanentFailures = 0
    var requestsLost = 0, deadSessions = 0, rejected = 0, timeouts = 0, wastedWork = 0, peakQueue = 0
    var totalWaits: [Double] = []
    var requestDurations: Int64 = 0
    var lastCompletion: Int64 = 0

    init(scenario: Scenario, random: RandomGenerator) {
        self.scenario = scenario
        policy = scenario.policy
        behaviour = scenario.behaviour
        self.random = random
        timeline = LoadTimeline(bucketWidth: scenario.bucketWidth)
    }

    var now: VirtualTime { simulation.now }

    mutating func run(arrivalTimes starts: [Int64]) throws(SimulationError) -> ScenarioReport {
        guard starts.count < ScenarioEvent.maximumClients else { throw .tooManyClients(starts.count) }
        clients = [SimulatedClient](
            repeating: SimulatedClient(policy: policy, requests: scenario.requestsPerClient), count: starts.count)
        totalWaits.reserveCapacity(starts.count * scenario.requestsPerClient)
        simulation.reserveCapacity(starts.count)
        for (index, start) in starts.enumerated() {
            simulation.schedule(ScenarioEvent(kind: .send, client: index, value: 0), at: VirtualTime(nanoseconds: start))
        }
        while let event = simulation.step() { handle(event) }
        if timeline.overflowed {
            throw .tooManyBuckets(needed: Double(now.nanoseconds / scenario.bucketWidth + 1), limit: timeline.limit)
        }
        return report()
    }

    /// Session start times, drawn from `random` before the run.
    func arrivalTimes(using random: RandomGenerator) -> [Int64] {
        switch scenario.arrivals {
        case .burst:
            return [Int64](repeating: 0, count: scenario.clients)
        case .uniform(let window):
            return (0..<scenario.clients).map { _ in Int64((random.uniform() * Double(window)).rounded(.down)) }.sorted()
        case .poisson(let rate, let duration):
            var times: [Int64] = []
            var time = 0.0
            while true {
                time += random.exponential(mean: 1e9 / rate)
                guard time < Double(duration) else { return times }
                times.append(Int64(time))
            }
        }
    }

    mutating func schedule(_ kind: ScenarioEvent.Kind, _ client: Int, value: Int64 = 0, after delay: Int64, priority: Int = 0) {
        simulation.schedule(ScenarioEvent(kind: kind, client: client, value: value), after: delay, priority: priority)
    }

    mutating func handle(_ event: ScenarioEvent) {
        let index = event.client
        switch event.kind {
        case .send:
            send(index)
        case .readAtServer:
            schedule(.readReply, index, value: version, after: hop())
        case .readReply:
            schedule(.writeAtServer, index, value: Int64(event.value), after: hop())
        case .writeAtServer:
            let success = event.value == Int32(truncatingIfNeeded: version)
            if success { version += 1 }
            countAttempt(isRetry: clients[index].backoff.attempts > 1)
            timeline.recordAnswer(at: now, success ? .success : .failure)
            schedule(.writeReply, index, value: success ? 1 : 0, after: hop())
        case .writeReply:
            deliver(event.value == 1 ? .success : .failure(serverDelay: nil), to: index)
        case .serviceDone:
            serviceDone(index, attempt: Int64(event.value))
        case .timeout:
            guard clients[index].isAwaiting(Int64(event.value)) else { return }
            timeouts += 1
            timeline.recordTimeout(at: now)
            deliver(.timeout, to: index)
        }
    }

    /// The client starts an attempt; the server model decides what happens to it.
    mutating func send(_ index: Int) {
        let (generator, fraction) = (random, scenario.permanentFraction)
        let (attempt, isRetry) = clients[index].beginAttempt(at: now, policy: policy) {
            fraction > 0 && generator.uniform() < fraction
        }
        if !isRetry { uniqueRequests += 1 }
        switch scenario.server {
        case .alwaysFail, .bernoulli, .outage:
            let outcome = instantOutcome()
            countAttempt(isRetry: isRetry)
            let permanent = clients[index].isPermanent
            timeline.recordAnswer(at: now, permanent ? .failure : outcome.outcome)
            deliver(permanent ? .permanentError : outcome.outcome == .success ? .success : .failure(serverDelay: outcome.retryAfter),
                    to: index)
        case .contention:
            schedule(.readAtServer, index, after: hop())
        case .capacity(let model):
            countAttempt(isRetry: isRetry)
            arriveAtCapacity(index, attempt: attempt, model: model)
        }
    }

    mutating func countAttempt(isRetry: Bool) {
        attempts += 1
        timeline.recordAttempt(at: now, isRetry: isRetry)
    }

    /// The answer of an instant server, and its Retry-After. Draws one uniform for bernoulli only.
    mutating func instantOutcome() -> (outcome: AttemptOutcome, retryAfter: Int64?) {
        switch scenario.server {
        case .bernoulli(let p, let retryAfter):
            return random.uniform() < p ? (.failure, delay(retryAfter, recovery: nil)) : (.success, nil)
        case .outage(let end, let retryAfter):
            return now < end ? (.failure, delay(retryAfter, recovery: end)) : (.success, nil)
        default:
            return (.failure, nil)
        }
    }

    func delay(_ retryAfter: RetryAfter?, recovery: VirtualTime?) -> Int64? {
        switch retryAfter {
        case .fixed(let delay): delay
        case .untilRecovery: recovery.map { max(0, $0.nanoseconds - now.nanoseconds) }
        case nil: nil
        }
    }

    /// A network hop, |N(mean, sd²)| rounded to whole nanoseconds.
    mutating func hop() -> Int64 {
        guard case .contention(let delay) = scenario.server else { return 0 }
        let draw = random.normal(mean: Double(delay.mean), standardDeviation: Double(delay.standardDeviation))
        return Int64(abs(draw).rounded())
    }

    // MARK: Capacity

    mutating func arriveAtCapacity(_ index: Int, attempt: Int64, model: CapacityModel) {
        if busyWorkers < model.workers {
            startService(client: Int32(index), attempt: attempt, model: model)
        } else if queue.count < model.queueLimit {
            queue.append((Int32(index), attempt))
            peakQueue = max(peakQueue, queue.count)
            timeline.recordQueueLength(at: now, queue.count)
        } else {
            rejected += 1
            timeline.recordRejection(at: now)
            timeline.recordAnswer(at: now, .failure)
            deliver(.failure(serverDelay: model.rejectionRetryAfter), to: index)
            return
        }
        if let timeout = scenario.attemptTimeout {
            schedule(.timeout, index, value: attempt, after: timeout, priority: 1)
        }
    }

    mutating func startService(client: Int32, attempt: Int64, model: CapacityModel) {
        busyWorkers += 1
        var duration: Double
        switch model.serviceTime {
        case .deterministic(let t): duration = Double(t)
        case .exponential(let mean): duration = random.exponential(mean: Double(mean))
        case .lognormal(let mean, let sd):
            let m = Double(mean)
            let variance = log(1 + Double(sd) * Double(sd) / (m * m))
            duration = random.lognormal(mu: log(m) - variance / 2, sigma: variance.squareRoot())
        }
        if let window = model.degradation, now >= window.start, now < window.end {
            duration /= window.fraction
        }
        schedule(.serviceDone, Int(client), value: attempt, after: max(1, Int64(duration.rounded())))
    }

    mutating func serviceDone(_ index: Int, attempt: Int64) {
        guard case .capacity(let model) = scenario.server else { return }
        busyWorkers -= 1
        if clients[index].isAwaiting(attempt) {
            let permanent = clients[index].isPermanent
            timeline.recordAnswer(at: now, permanent ? .failure : .success)
            deliver(permanent ? .permanentError : .success, to: index)
        } else {
            wastedWork += 1
        }
        if let next = queue.popFirst() {
            timeline.recordQueueLength(at: now, queue.count)
            startService(client: next.client, attempt: next.attempt, model: model)
        }
    }

    // MARK: Carrying out the clients' actions

    /// Hands an answer to the client and carries out its action.
    mutating func deliver(_ answer: ClientAnswer, to index: Int) {
        let requestStart = clients[index].requestStart
        let waited = clients[index].backoff.totalWait
        switch clients[index].answered(answer, at: now, policy: policy, behaviour: behaviour, using: &random) {
        case .retry(let time):
            simulation.schedule(ScenarioEvent(kind: .send, client: index, value: 0), at: time)
        case .endRequest(let outcome, let next, let unsent):
            switch outcome {
            case .succeeded: successes += 1
            case .permanentFailure: permanentFailures += 1
            case .gaveUp:
                giveUps += 1
                requestsLost += 1 + unsent
                if next == nil && scenario.onGiveUp == .endSession && scenario.requestsPerClient > 1 { deadSessions += 1 }
            }
            totalWaits.append(Double(waited) / 1e9)
            requestDurations += now.nanoseconds - requestStart.nanoseconds
            lastCompletion = max(lastCompletion, now.nanoseconds)
            if let next { simulation.schedule(ScenarioEvent(kind: .send, client: index, value: 0), at: next) }
        }
    }

    func report() -> ScenarioReport {
        let n = Double(clients.count)
        let squares = clients.reduce(0.0) { $0 + Double($1.attempts) * Double($1.attempts) }
        let mean = Double(attempts) / n
        let variance = (squares - n * mean * mean) / (n - 1)
        return ScenarioReport(
            clients: clients.count, attempts: attempts,
            attemptsStandardError: clients.count > 1 ? (max(0, variance) / n).squareRoot() : .nan,
            uniqueRequests: uniqueRequests, successes: successes, giveUps: giveUps, permanentFailures: permanentFailures,
            requestsLost: requestsLost, deadSessions: deadSessions, rejected: rejected, timeouts: timeouts,
            wastedWork: wastedWork, peakQueue: peakQueue,
            totalWait: totalWaits.isEmpty ? Summary([.nan]) : Summary(totalWaits, quantiles: [0.5, 0.99]),
            meanCompletion: totalWaits.isEmpty ? .nan : Double(requestDurations) / Double(totalWaits.count) / 1e9,
            lastCompletion: Double(lastCompletion) / 1e9,
            timeline: timeline)
    }
}
