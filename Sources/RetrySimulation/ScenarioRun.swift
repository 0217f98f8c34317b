import BackoffPolicies
import EventSimulation
import Foundation
import Stochastics

/// The driver of one ``Scenario`` run: it owns the engine, the clients, the server's state and the
/// counters, and carries out the clients' actions.
///
/// Every client draws from its own stream (``ClientStreams``), so the order in which clients are
/// handled does not change any number. That allows two ways to run: servers whose clients interact
/// (contention, capacity) go through the event engine, where ties at one instant run in scheduling
/// order, except that timeouts (priority 1) run after the answers due at the same instant (priority
/// 0); servers that answer at once and keep no state (always-fail, bernoulli, outage) are run client
/// by client with no event queue at all, which gives the very same report (tested) in far less time.
struct ScenarioRun {
    let scenario: Scenario
    let policy: BackoffPolicy
    let behaviour: ClientBehaviour
    let seed: UInt64
    let streams: ClientStreams
    /// Run client by client: one stream slot (0) reseeded per client, no client array, no queue.
    let alone: Bool

    // The server's parameters, copied out of `scenario.server` once: switching over that enum at
    // every event copies its largest payload (a capacity model), which showed in profiles.
    enum ServerKind { case instant, contention, capacity }
    let kind: ServerKind
    /// Instant servers: bernoulli's failure probability (`nil` for the others), the outage's end
    /// (`nil` for the others) and the Retry-After their failures carry.
    let instant: (failureProbability: Double?, outageEnd: VirtualTime?, retryAfter: RetryAfter?)
    let hopDelay: (mean: Double, sd: Double)
    /// The capacity model (a placeholder unless `kind == .capacity`).
    let capacity: CapacityModel

    var simulation = Simulation<ScenarioEvent>()
    /// The clients of an event-ordered run, in memory of their own (not an array stored in `self`),
    /// so a client is updated in place while the driver updates its counters.
    var clients = UnsafeMutableBufferPointer<SimulatedClient>(start: nil, count: 0)
    var timeline: LoadTimeline

    // Server state: the contention model's version; the capacity model's workers and queue.
    var version: Int64 = 0
    var busyWorkers = 0
    var queue = RingBuffer<(client: Int32, attempt: Int64)>()

    // Counters.
    var sessions = 0
    var attempts = 0, uniqueRequests = 0, successes = 0, giveUps = 0, permanentFailures = 0
    var requestsLost = 0, deadSessions = 0, rejected = 0, timeouts = 0, wastedWork = 0, peakQueue = 0
    /// Per request (client-major, `requestsPerClient` slots each), NaN for a request never sent: the
    /// same order whichever way the run goes, so the summary's sums are the same too.
    var totalWaits: [Double] = []
    var requestDurations: Int64 = 0
    var lastCompletion: Int64 = 0
    /// Σ (attempts of a session)², for the standard error of attempts per client.
    var attemptSquares = 0.0

    // Shared limits and what they need: requests and retries in flight, each client's retry cost.
    var limits: RetryLimits
    var activeRequests = 0, activeRetries = 0, budgetDenials = 0, localRejections = 0
    var retryCosts: [Int32] = []
    var retrying: [Bool] = []

    /// - Parameter queued: force the event engine even where clients could run one by one.
    init(scenario: Scenario, clients count: Int, seed: UInt64, queued: Bool) {
        self.scenario = scenario
        policy = scenario.policy
        behaviour = scenario.behaviour
        self.seed = seed
        limits = scenario.limits
        alone = scenario.server.answersAtOnce && scenario.limits.isEmpty && !queued
        let placeholder = CapacityModel(workers: 1, serviceTime: .deterministic(1), queueLimit: 0)
        (kind, instant, hopDelay, capacity) = switch scenario.server {
        case .alwaysFail: (.instant, (nil, nil, nil), (0, 0), placeholder)
        case .bernoulli(let p, let retryAfter): (.instant, (p, nil, retryAfter), (0, 0), placeholder)
        case .outage(let end, let retryAfter): (.instant, (nil, end, retryAfter), (0, 0), placeholder)
        case .contention(let delay): (.contention, (nil, nil, nil), (Double(delay.mean), Double(delay.standardDeviation)), placeholder)
        case .capacity(let model): (.capacity, (nil, nil, nil), (0, 0), model)
        }
        streams = ClientStreams(count: alone ? 1 : count, root: seed)
        timeline = LoadTimeline(bucketWidth: scenario.bucketWidth)
    }

    /// The stream slot of client `index`.
    @inline(__always) func slot(_ index: Int) -> Int { alone ? 0 : index }

    var now: VirtualTime { simulation.now }

    /// Runs the clients starting at `starts`.
    mutating func run(arrivalTimes starts: [Int64]) throws(SimulationError) -> ScenarioReport {
        guard starts.count < ScenarioEvent.maximumClients else { throw .tooManyClients(starts.count) }
        sessions = starts.count
        totalWaits = [Double](repeating: .nan, count: starts.count * scenario.requestsPerClient)
        if alone {
            for (index, start) in starts.enumerated() {
                streams.reseed(0, root: seed, stream: UInt64(index))
                var client = SimulatedClient(policy: policy, requests: scenario.requestsPerClient)
                runAlone(&client, index, from: VirtualTime(nanoseconds: start))
            }
        } else {
            retryCosts = [Int32](repeating: 0, count: limits.budget == nil ? 0 : starts.count)
            retrying = [Bool](repeating: false, count: limits.budget == nil ? 0 : starts.count)
            clients = .allocate(capacity: starts.count)
            clients.initialize(repeating: SimulatedClient(policy: policy, requests: scenario.requestsPerClient))
            defer {
                clients.deallocate()  // SimulatedClient holds no references: nothing to deinitialize
                clients = UnsafeMutableBufferPointer(start: nil, count: 0)
            }
            simulation.reserveCapacity(starts.count)
            for (index, start) in starts.enumerated() {
                simulation.schedule(ScenarioEvent(kind: .send, client: index, value: 0), at: VirtualTime(nanoseconds: start))
            }
            while let event = simulation.step() { handle(event) }
        }
        if timeline.overflowed {
            throw .tooManyBuckets(needed: Double(lastCompletion / scenario.bucketWidth + 1), limit: timeline.limit)
        }
        return report()
    }

    /// One client's whole session against a server that answers at once, without the event queue.
    mutating func runAlone(_ client: inout SimulatedClient, _ index: Int, from start: VirtualTime) {
        var time = start
        while true {
            let (_, isRetry) = beginAttempt(&client, index, at: time)
            let outcome = instantOutcome(for: index, at: time)
            countAttempt(isRetry: isRetry, at: time)
            let permanent = client.isPermanent
            timeline.recordAnswer(at: time, permanent ? .failure : outcome.outcome)
            let answer: ClientAnswer =
                permanent ? .permanentError : outcome.outcome == .success ? .success : .failure(serverDelay: outcome.retryAfter)
            guard let next = carryOut(answer, for: &client, index, at: time) else { return }
            time = next
        }
    }

    /// Session start times, drawn from `random` before the run.
    static func arrivalTimes(of scenario: Scenario, using random: RandomGenerator) -> [Int64] {
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
            // The reply's hop and the write's hop, drawn now: nothing happens at the client between
            // them, and its draws come from its own stream, so only the server's events need events.
            let replyHop = hop(index)
            schedule(.writeAtServer, index, value: version, after: replyHop + hop(index))
        case .writeAtServer:
            let success = event.value == Int32(truncatingIfNeeded: version)
            if success { version += 1 }
            countAttempt(isRetry: clients[index].backoff.attempts > 1, at: now)
            timeline.recordAnswer(at: now, success ? .success : .failure)
            // The client learns the outcome one hop later and acts then; its next attempt's read
            // leaves at once, one hop from the server.
            let replied = now + hop(index)
            if let next = carryOut(success ? .success : .failure(serverDelay: nil), for: &clients[index], index, at: replied) {
                _ = beginAttempt(&clients[index], index, at: next)
                simulation.schedule(ScenarioEvent(kind: .readAtServer, client: index, value: 0), at: next + hop(index))
            }
        case .serviceDone:
            serviceDone(index, attempt: Int64(event.value))
        case .timeout:
            guard clients[index].isAwaiting(Int64(event.value)) else { return }
            timeouts += 1
            timeline.recordTimeout(at: now)
            deliver(.timeout, to: index)
        }
    }

    /// The client starts an attempt at `time`; at a request's first attempt, whether it meets a
    /// permanent error is drawn from the client's stream.
    mutating func beginAttempt(_ client: inout SimulatedClient, _ index: Int, at time: VirtualTime) -> (id: Int64, isRetry: Bool) {
        let (streams, fraction, slot) = (streams, scenario.permanentFraction, slot(index))
        let attempt = client.beginAttempt(at: time, policy: policy) {
            fraction > 0 && streams.uniform(slot) < fraction
        }
        if !attempt.isRetry { uniqueRequests += 1 }
        return attempt
    }

    /// The client starts an attempt; the server model decides what happens to it.
    mutating func send(_ index: Int) {
        let (attempt, isRetry) = beginAttempt(&clients[index], index, at: now)
        if !isRetry {
            activeRequests += 1
            let time = now.nanoseconds
            limits.budget?.requestStarted(at: time)
        }
        if !passesGatekeepers(index) {
            localRejections += 1
            deliver(.rejectedLocally, to: index)
            return
        }
        switch kind {
        case .instant:
            let outcome = instantOutcome(for: index, at: now)
            countAttempt(isRetry: isRetry, at: now)
            let permanent = clients[index].isPermanent
            timeline.recordAnswer(at: now, permanent ? .failure : outcome.outcome)
            deliver(permanent ? .permanentError : outcome.outcome == .success ? .success : .failure(serverDelay: outcome.retryAfter),
                    to: index)
        case .contention:
            schedule(.readAtServer, index, after: hop(index))
        case .capacity:
            countAttempt(isRetry: isRetry, at: now)
            arriveAtCapacity(index, attempt: attempt, model: capacity)
        }
    }

    /// The client's throttle (one uniform from its stream) and breaker decide whether the attempt
    /// leaves at all.
    mutating func passesGatekeepers(_ index: Int) -> Bool {
        let time = now.nanoseconds
        if limits.throttle != nil {
            limits.throttle!.recordRequest(at: time)
            if streams.uniform(slot(index)) < limits.throttle!.rejectionProbability(at: time) { return false }
        }
        if limits.breaker != nil {
            return limits.breaker!.allowsRequest(at: time)
        }
        return true
    }

    mutating func countAttempt(isRetry: Bool, at time: VirtualTime) {
        attempts += 1
        timeline.recordAttempt(at: time, isRetry: isRetry)
    }

    /// The answer of an instant server at `time`, and its Retry-After. Draws one uniform from the
    /// client's stream for bernoulli only.
    func instantOutcome(for index: Int, at time: VirtualTime) -> (outcome: AttemptOutcome, retryAfter: Int64?) {
        if let end = instant.outageEnd {
            return time < end ? (.failure, delay(instant.retryAfter, recovery: end, at: time)) : (.success, nil)
        }
        guard let p = instant.failureProbability else { return (.failure, nil) }  // always-fail draws nothing
        return streams.uniform(slot(index)) < p ? (.failure, delay(instant.retryAfter, recovery: nil, at: time)) : (.success, nil)
    }

    func delay(_ retryAfter: RetryAfter?, recovery: VirtualTime?, at time: VirtualTime) -> Int64? {
        switch retryAfter {
        case .fixed(let delay): delay
        case .untilRecovery: recovery.map { max(0, $0.nanoseconds - time.nanoseconds) }
        case nil: nil
        }
    }

    /// A network hop of the client's message, |N(mean, sd²)| rounded to whole nanoseconds.
    func hop(_ index: Int) -> Int64 {
        let draw = streams.normal(slot(index), mean: hopDelay.mean, standardDeviation: hopDelay.sd)
        return Int64(abs(draw) + 0.5)  // half up, without the libm call of rounded()
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
        case .exponential(let mean): duration = streams.exponential(slot(Int(client)), mean: Double(mean))
        case .lognormal(let mean, let sd):
            let m = Double(mean)
            let variance = log(1 + Double(sd) * Double(sd) / (m * m))
            duration = streams.lognormal(slot(Int(client)), mu: log(m) - variance / 2, sigma: variance.squareRoot())
        }
        if let window = model.degradation, now >= window.start, now < window.end {
            duration /= window.fraction
        }
        schedule(.serviceDone, Int(client), value: attempt, after: max(1, Int64(duration + 0.5)))
    }

    mutating func serviceDone(_ index: Int, attempt: Int64) {
        let model = capacity
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

    /// Hands an answer to the client and schedules what it does next.
    mutating func deliver(_ answer: ClientAnswer, to index: Int) {
        if let next = carryOut(answer, for: &clients[index], index, at: now) {
            simulation.schedule(ScenarioEvent(kind: .send, client: index, value: 0), at: next)
        }
    }

    /// Hands an answer to the client, counts what ends, and returns when the client's next attempt
    /// starts (a retry, or the session's next request), or `nil` when its session is over.
    mutating func carryOut(_ answer: ClientAnswer, for client: inout SimulatedClient, _ index: Int, at time: VirtualTime) -> VirtualTime? {
        let requestStart = client.requestStart
        let waited = client.backoff.totalWait
        let request = scenario.requestsPerClient - client.requestsLeft
        let answeredRetry = client.backoff.attempts > 1
        if !limits.isEmpty && answer != .rejectedLocally { recordIntoLimits(answer, index, wasRetry: answeredRetry, at: time) }
        var random = ClientRandom(streams: streams, client: slot(index))
        var granted: Int? = 0
        let action: ClientAction
        if limits.budget != nil {
            let (requests, retries) = (activeRequests, activeRetries)
            var budget = limits.budget!
            action = client.answered(answer, at: time, policy: policy, behaviour: behaviour, using: &random) { afterTimeout in
                granted = budget.acquireRetry(at: time.nanoseconds, afterTimeout: afterTimeout, activeRequests: requests, activeRetries: retries)
                return granted != nil
            }
            limits.budget = budget
        } else {
            action = client.answered(answer, at: time, policy: policy, behaviour: behaviour, using: &random)
        }
        switch action {
        case .retry(let next):
            if !retryCosts.isEmpty {
                retryCosts[index] = Int32(granted ?? 0)
                if !retrying[index] {
                    retrying[index] = true
                    activeRetries += 1
                }
            }
            return next
        case .endRequest(let outcome, let next, let unsent):
            switch outcome {
            case .succeeded: successes += 1
            case .permanentFailure: permanentFailures += 1
            case .gaveUp, .deniedByBudget, .rejectedLocally:
                if outcome == .gaveUp { giveUps += 1 }
                if outcome == .deniedByBudget { budgetDenials += 1 }
                requestsLost += 1 + unsent
                if next == nil && scenario.onGiveUp == .endSession && scenario.requestsPerClient > 1 { deadSessions += 1 }
            }
            activeRequests -= 1
            if !retrying.isEmpty && retrying[index] {
                retrying[index] = false
                activeRetries -= 1
            }
            totalWaits[index * scenario.requestsPerClient + request] = Double(waited) / 1e9
            requestDurations += time.nanoseconds - requestStart.nanoseconds
            lastCompletion = max(lastCompletion, time.nanoseconds)
            if next == nil { attemptSquares += Double(client.attempts) * Double(client.attempts) }
            return next
        }
    }

    /// An answer from the server (or a timeout) feeds the budget, the breaker and the throttle.
    mutating func recordIntoLimits(_ answer: ClientAnswer, _ index: Int, wasRetry: Bool, at time: VirtualTime) {
        let success = answer == .success
        if limits.budget != nil {
            let cost = wasRetry && !retryCosts.isEmpty ? Int(retryCosts[index]) : nil
            limits.budget!.recordAnswer(success: success, retryCost: cost)
        }
        limits.breaker?.record(success: success, at: time.nanoseconds)
        if success { limits.throttle?.recordAccept(at: time.nanoseconds) }
    }

    func report() -> ScenarioReport {
        let ended = totalWaits.filter { !$0.isNaN }
        let n = Double(sessions)
        let mean = Double(attempts) / n
        let variance = (attemptSquares - n * mean * mean) / (n - 1)
        return ScenarioReport(
            clients: sessions, attempts: attempts,
            attemptsStandardError: sessions > 1 ? (max(0, variance) / n).squareRoot() : .nan,
            uniqueRequests: uniqueRequests, successes: successes, giveUps: giveUps, permanentFailures: permanentFailures,
            requestsLost: requestsLost, deadSessions: deadSessions, rejected: rejected, timeouts: timeouts,
            wastedWork: wastedWork, peakQueue: peakQueue, budgetDenials: budgetDenials, localRejections: localRejections,
            totalWait: ended.isEmpty ? Summary([.nan]) : Summary(ended, quantiles: [0.5, 0.99]),
            meanCompletion: ended.isEmpty ? .nan : Double(requestDurations) / Double(ended.count) / 1e9,
            lastCompletion: Double(lastCompletion) / 1e9,
            timeline: timeline)
    }
}
