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
///
/// The run is generic over its ``RetryGate``: without a budget, breaker or throttle it is compiled
/// with ``NoLimits`` and carries no limit code at all.
struct ScenarioRun<Gate: RetryGate> {
    let scenario: Scenario
    let policy: BackoffPolicy
    let behaviour: ClientBehaviour
    let seed: UInt64
    let streams: ClientStreams
    /// How the clients are gone through (see ``ScenarioPath``).
    let path: ScenarioPath

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

    /// The engine, with two ordered lanes: the first attempts (scheduled ahead, in arrival order) and
    /// the timeouts (all after the same delay, so in the order they are scheduled).
    var simulation = Simulation<ScenarioEvent>(lanes: 2)
    static var arrivalLane: Int { 0 }
    static var timeoutLane: Int { 1 }
    /// The clients of an event-ordered run, in memory of their own (not an array stored in `self`),
    /// so a client is updated in place while the driver updates its counters.
    var clients = UnsafeMutableBufferPointer<SimulatedClient>(start: nil, count: 0)
    var timeline: LoadRecorder

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
    /// Requests that ended (the entries of `totalWaits` that are not NaN).
    var endedRequests = 0
    var requestDurations: Int64 = 0
    var lastCompletion: Int64 = 0
    /// Σ (attempts of a session)², for the standard error of attempts per client.
    var attemptSquares = 0.0

    /// The shared limits (a budget, breaker, throttle), or none.
    var gate: Gate
    var budgetDenials = 0, localRejections = 0

    /// - Parameter path: one of the paths applicable to `scenario` (see ``ScenarioPath/applicable(to:)``).
    init(scenario: Scenario, clients count: Int, seed: UInt64, path: ScenarioPath) {
        precondition(ScenarioPath.applicable(to: scenario).contains(path), "the path \(path) does not apply to this scenario")
        self.scenario = scenario
        policy = scenario.policy
        behaviour = scenario.behaviour
        self.seed = seed
        gate = Gate(limits: scenario.limits, clients: count)
        self.path = path
        let placeholder = CapacityModel(workers: 1, serviceTime: .deterministic(1), queueLimit: 0)
        (kind, instant, hopDelay, capacity) = switch scenario.server {
        case .alwaysFail: (.instant, (nil, nil, nil), (0, 0), placeholder)
        case .bernoulli(let p, let retryAfter): (.instant, (p, nil, retryAfter), (0, 0), placeholder)
        case .outage(let end, let retryAfter): (.instant, (nil, end, retryAfter), (0, 0), placeholder)
        case .contention(let delay): (.contention, (nil, nil, nil), (Double(delay.mean), Double(delay.standardDeviation)), placeholder)
        case .capacity(let model): (.capacity, (nil, nil, nil), (0, 0), model)
        }
        streams = ClientStreams(count: path == .eventOrdered ? count : 0, root: seed)
        timeline = LoadRecorder(bucketWidth: scenario.bucketWidth)
    }

    var now: VirtualTime { simulation.now }

    /// Runs the clients starting at `starts`.
    mutating func run(arrivalTimes starts: [Int64]) throws(SimulationError) -> ScenarioReport {
        defer { timeline.deallocate() }
        guard starts.count < ScenarioEvent.maximumClients else { throw .tooManyClients(starts.count) }
        sessions = starts.count
        totalWaits = [Double](repeating: .nan, count: starts.count * scenario.requestsPerClient)
        switch path {
        case .plainHerd:
            runPlainHerd(starts)
        case .clientByClient:
            runAlone(starts)
        case .eventOrdered:
            clients = .allocate(capacity: starts.count)
            clients.initialize(repeating: SimulatedClient(policy: policy, requests: scenario.requestsPerClient))
            defer {
                clients.deallocate()  // SimulatedClient holds no references: nothing to deinitialize
                clients = UnsafeMutableBufferPointer(start: nil, count: 0)
            }
            simulation.reserveCapacity(starts.count, lane: Self.arrivalLane)
            for (index, start) in starts.enumerated() {
                simulation.schedule(ScenarioEvent(kind: .send, client: index, value: 0), at: VirtualTime(nanoseconds: start),
                                    lane: Self.arrivalLane)
            }
            while let event = simulation.step() { handle(event) }
        }
        if timeline.overflowed {
            throw .tooManyBuckets(needed: Double(lastCompletion / scenario.bucketWidth + 1), limit: timeline.limit)
        }
        return report()
    }

    /// Every client's whole session, one client after the other, against a server that answers at
    /// once, without the event queue.
    mutating func runAlone(_ starts: [Int64]) {
        for (index, start) in starts.enumerated() {
            // The client's own stream, held in registers: the same draws as its ClientStreams slot.
            var random = Taus2(seed: SeedDerivation.streamSeed(root: seed, stream: UInt64(index)))
            var client = SimulatedClient(policy: policy, requests: scenario.requestsPerClient)
            var time = VirtualTime(nanoseconds: start)
            while true {
                let answer = instantAttempt(&client, at: time, using: &random)
                guard let next = carryOut(answer, for: &client, index, at: time, using: &random) else { break }
                time = next
            }
        }
    }

    /// An attempt of `client` to an instant server at `time`: begun, counted and answered at once.
    @inline(__always)
    mutating func instantAttempt<Random: UniformSource>(
        _ client: inout SimulatedClient, at time: VirtualTime, using random: inout Random
    ) -> ClientAnswer {
        let isRetry = beginAttempt(&client, at: time, using: &random).isRetry
        return instantAnswer(client, isRetry: isRetry, at: time, using: &random)
    }

    /// An instant server's answer to `client`'s attempt at `time`, counted in the timeline. Draws
    /// one uniform for bernoulli only; a request meeting a permanent error gets that error.
    @inline(__always)
    mutating func instantAnswer<Random: UniformSource>(
        _ client: SimulatedClient, isRetry: Bool, at time: VirtualTime, using random: inout Random
    ) -> ClientAnswer {
        let outcome = instantOutcome(at: time, using: &random)
        attempts += 1
        let permanent = client.isPermanent
        timeline.recordAttempt(at: time, isRetry: isRetry, answeredAtOnce: permanent ? .failure : outcome.outcome)
        return permanent ? .permanentError : outcome.outcome == .success ? .success : .failure(serverDelay: outcome.retryAfter)
    }

    mutating func schedule(_ kind: ScenarioEvent.Kind, _ client: Int, value: Int64 = 0, after delay: Int64) {
        simulation.schedule(ScenarioEvent(kind: kind, client: client, value: value), after: delay)
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
            var random = ClientRandom(streams: streams, client: index)
            if let next = carryOut(success ? .success : .failure(serverDelay: nil), for: &clients[index], index, at: replied, using: &random) {
                _ = beginAttempt(&clients[index], at: next, using: &random)
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
    @inline(__always)
    mutating func beginAttempt<Random: UniformSource>(
        _ client: inout SimulatedClient, at time: VirtualTime, using random: inout Random
    ) -> (id: Int64, isRetry: Bool) {
        let fraction = scenario.permanentFraction
        let attempt = client.beginAttempt(at: time, policy: policy) {
            fraction > 0 && random.nextUniform() < fraction
        }
        if !attempt.isRetry { uniqueRequests += 1 }
        return attempt
    }

    /// The client starts an attempt; the server model decides what happens to it.
    mutating func send(_ index: Int) {
        var random = ClientRandom(streams: streams, client: index)
        let (attempt, isRetry) = beginAttempt(&clients[index], at: now, using: &random)
        if !isRetry { gate.requestStarted(at: now.nanoseconds) }
        if !gate.admitsAttempt(at: now.nanoseconds, using: &random) {
            localRejections += 1
            deliver(.rejectedLocally, to: index)
            return
        }
        switch kind {
        case .instant:
            deliver(instantAnswer(clients[index], isRetry: isRetry, at: now, using: &random), to: index)
        case .contention:
            schedule(.readAtServer, index, after: hop(index))
        case .capacity:
            countAttempt(isRetry: isRetry, at: now)
            arriveAtCapacity(index, attempt: attempt, model: capacity)
        }
    }

    @inline(__always)
    mutating func countAttempt(isRetry: Bool, at time: VirtualTime) {
        attempts += 1
        timeline.recordAttempt(at: time, isRetry: isRetry)
    }

    /// The answer of an instant server at `time`, and its Retry-After. Draws one uniform from the
    /// client's stream for bernoulli only.
    @inline(__always)
    func instantOutcome<Random: UniformSource>(at time: VirtualTime, using random: inout Random) -> (outcome: AttemptOutcome, retryAfter: Int64?) {
        if let end = instant.outageEnd {
            return time < end ? (.failure, delay(instant.retryAfter, recovery: end, at: time)) : (.success, nil)
        }
        guard let p = instant.failureProbability else { return (.failure, nil) }  // always-fail draws nothing
        return random.nextUniform() < p ? (.failure, delay(instant.retryAfter, recovery: nil, at: time)) : (.success, nil)
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
        let draw = streams.normal(index, mean: hopDelay.mean, standardDeviation: hopDelay.sd)
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
            simulation.schedule(ScenarioEvent(kind: .timeout, client: index, value: attempt), after: timeout, priority: 1,
                                lane: Self.timeoutLane)
        }
    }

    mutating func startService(client: Int32, attempt: Int64, model: CapacityModel) {
        busyWorkers += 1
        var duration: Double
        switch model.serviceTime {
        case .deterministic(let t): duration = Double(t)
        case .exponential(let mean): duration = streams.exponential(Int(client), mean: Double(mean))
        case .lognormal(let mean, let sd):
            let m = Double(mean)
            let variance = log(1 + Double(sd) * Double(sd) / (m * m))
            duration = streams.lognormal(Int(client), mu: log(m) - variance / 2, sigma: variance.squareRoot())
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
        var random = ClientRandom(streams: streams, client: index)
        if let next = carryOut(answer, for: &clients[index], index, at: now, using: &random) {
            simulation.schedule(ScenarioEvent(kind: .send, client: index, value: 0), at: next)
        }
    }

    /// Hands an answer to the client, counts what ends, and returns when the client's next attempt
    /// starts (a retry, or the session's next request), or `nil` when its session is over.
    @inline(__always)
    mutating func carryOut<Random: UniformSource>(
        _ answer: ClientAnswer, for client: inout SimulatedClient, _ index: Int, at time: VirtualTime,
        using random: inout Random
    ) -> VirtualTime? {
        let requestStart = client.requestStart
        let waited = client.backoff.totalWait
        let request = scenario.requestsPerClient - client.requestsLeft
        if answer != .rejectedLocally {
            gate.recordAnswer(success: answer == .success, client: index, wasRetry: client.backoff.attempts > 1, at: time.nanoseconds)
        }
        let action = client.answered(answer, at: time, policy: policy, behaviour: behaviour, using: &random) { afterTimeout in
            gate.grantsRetry(client: index, afterTimeout: afterTimeout, at: time.nanoseconds)
        }
        switch action {
        case .retry(let next):
            gate.retryScheduled(client: index)
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
            gate.requestEnded(client: index)
            totalWaits[index * scenario.requestsPerClient + request] = Double(waited) / 1e9
            endedRequests += 1
            requestDurations += time.nanoseconds - requestStart.nanoseconds
            lastCompletion = max(lastCompletion, time.nanoseconds)
            if next == nil { attemptSquares += Double(client.attempts) * Double(client.attempts) }
            return next
        }
    }

    /// The run's report; hands over the total waits (the summary reorders them in place, uncopied).
    mutating func report() -> ScenarioReport {
        var ended: [Double] = []
        swap(&ended, &totalWaits)
        if endedRequests != ended.count { ended = ended.filter { !$0.isNaN } }  // in order: the sums depend on it
        let n = Double(sessions)
        let mean = Double(attempts) / n
        let variance = (attemptSquares - n * mean * mean) / (n - 1)
        return ScenarioReport(
            clients: sessions, attempts: attempts,
            attemptsStandardError: sessions > 1 ? (max(0, variance) / n).squareRoot() : .nan,
            uniqueRequests: uniqueRequests, successes: successes, giveUps: giveUps, permanentFailures: permanentFailures,
            requestsLost: requestsLost, deadSessions: deadSessions, rejected: rejected, timeouts: timeouts,
            wastedWork: wastedWork, peakQueue: peakQueue, budgetDenials: budgetDenials, localRejections: localRejections,
            totalWait: endedRequests == 0 ? Summary([.nan]) : Summary(ended, quantiles: [0.5, 0.99]),
            meanCompletion: endedRequests == 0 ? .nan : Double(requestDurations) / Double(endedRequests) / 1e9,
            lastCompletion: Double(lastCompletion) / 1e9,
            timeline: timeline.timeline)
    }
}
