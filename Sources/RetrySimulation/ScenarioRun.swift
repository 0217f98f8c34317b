import BackoffPolicies
import EventSimulation
import Stochastics

/// The driver of one ``Scenario`` run: the engine, the clients and their streams, the shared limits,
/// the load recorder and the counters. It starts the clients' attempts, carries out their actions
/// and hands each attempt to its server model, which decides what becomes of it.
///
/// Every client draws from its own stream (`ClientStreams`), so the order in which clients are
/// handled does not change any number. Events at one instant run in scheduling order, except that
/// timeouts (priority 1) run after the answers due at the same instant (priority 0). Servers that
/// answer at once may also run client by client, without the event queue
/// (``runClientByClient(_:clients:)``, ``runPlainHerd(_:clients:)``), which gives the very same report (tested).
///
/// The driver is generic over its `SimulatedServer` and its `RetryGate`, so each combination is
/// compiled on its own: a run without a budget, breaker or throttle carries no limit code at all.
/// The server says what it decided through `ServerDecisions` (``ScenarioRun+ServerDecisions``), and
/// the driver counts and carries it out.
struct ScenarioRun<Server: SimulatedServer, Gate: RetryGate> {
    let scenario: Scenario
    let policy: BackoffPolicy
    let behaviour: ClientBehaviour
    let seed: UInt64
    let streams: ClientStreams
    /// The policy's cap rounded to whole nanoseconds (a wait at the cap equals it), -1 without one.
    let capWait: Int64

    /// The engine, with two ordered lanes: the first attempts (scheduled ahead, in arrival order) and
    /// the timeouts (all after the same delay, so in the order they are scheduled).
    var simulation = Simulation<ScenarioEvent>(lanes: 2)
    static var arrivalLane: Int { 0 }
    static var timeoutLane: Int { 1 }
    /// The clients of an event-ordered run, in memory of their own (not an array stored in `self`),
    /// so a client is updated in place while the driver updates its counters.
    var clients = UnsafeMutableBufferPointer<SimulatedClient>(start: nil, count: 0)
    var timeline: LoadRecorder
    var counters: ScenarioCounters
    /// The shared limits (a budget, breaker, throttle), or none.
    var gate: Gate
    /// Where each request goes as it ends (`--requests FILE`), or nowhere.
    let requestLog: (any RequestLog)?
    /// With a request log and a hedge, each client's copies for its current request (empty otherwise).
    var requestCopies = UnsafeMutableBufferPointer<Int32>(start: nil, count: 0)
    /// Where the sessions that end are counted, in steps of ``RunProgress/step``, or nowhere.
    let progress: RunProgress?
    /// The sessions ended so far (of an event-ordered run: a client-by-client run does not count).
    var sessionsEnded = 0

    /// A run of `scenario` for `sessions` sessions, with client streams under `seed` (allocated only
    /// for an event-ordered run: a client-by-client run seeds each client's in turn), keeping the
    /// requests' total waits one by one up to `exactQuantileLimit` requests.
    init(
        scenario: Scenario, sessions: Int, seed: UInt64, eventOrdered: Bool, requestLog: (any RequestLog)? = nil,
        exactQuantileLimit: Int = Scenario.exactQuantileLimit, progress: RunProgress? = nil
    ) {
        self.scenario = scenario
        self.requestLog = requestLog
        self.progress = progress
        policy = scenario.clientPolicy
        behaviour = scenario.behaviour
        self.seed = seed
        gate = Gate(limits: scenario.limits, clients: sessions, failureKind: scenario.failureKind)
        streams = ClientStreams(count: eventOrdered ? sessions : 0, root: seed)
        capWait = scenario.policy.roundedCap ?? -1
        timeline = LoadRecorder(bucketWidth: scenario.bucketNanoseconds)
        counters = ScenarioCounters(
            sessions: sessions, requestsPerClient: scenario.requestsPerClient, exactQuantileLimit: exactQuantileLimit,
            attributesServerAttempts: Server.makesAttemptsOfItsOwn, batchesSessions: scenario.usesBatchMeans)
    }

    var now: VirtualTime { simulation.now }

    /// Runs the clients through the event engine; a run that fails frees its recorder as
    /// ``finish()`` does, so a caller that catches the error loses no memory.
    mutating func runEventOrdered(_ starts: [Int64]) throws(SimulationError) -> ScenarioReport {
        do throws(SimulationError) {
            try runEvents(starts)
        } catch {
            timeline.deallocate()
            throw error
        }
        return try finish()
    }

    /// The event loop of ``runEventOrdered(_:)``, up to the report.
    private mutating func runEvents(_ starts: [Int64]) throws(SimulationError) {
        clients = .allocate(capacity: starts.count)
        clients.initialize(repeating: SimulatedClient(policy: policy, requests: scenario.requestsPerClient))
        defer {
            clients.deallocate()  // SimulatedClient holds no references: nothing to deinitialize
            clients = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
        if requestLog != nil && scenario.runsReplicaSet {
            requestCopies = .allocate(capacity: starts.count)
            requestCopies.initialize(repeating: 0)
        }
        defer {
            requestCopies.deallocate()
            requestCopies = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
        simulation.reserveCapacity(starts.count, lane: Self.arrivalLane)
        for (index, start) in starts.enumerated() {
            simulation.schedule(
                ScenarioEvent(kind: .send, client: index), at: VirtualTime(nanoseconds: start), lane: Self.arrivalLane)
        }
        var server = Server(scenario: scenario, seed: seed)
        while let event = simulation.step() {
            // Every span is at most the horizon, so no time computed before this check overflows.
            guard now <= VirtualTime.horizon else { throw .beyondHorizon }
            switch event.kind {
            case .send: send(event.client, to: &server)
            case .timeout: timeOut(event.client, attempt: Int64(event.value))
            case .dispatch:
                let index = event.client
                guard gate.wakesForToken(client: index, generation: event.value) else { continue }  // stale
                if waitsForToken(index, first: false) { continue }
                let attempt = clients[index].attemptID
                var random = ClientRandom(streams: streams, client: index)
                let isRetry = clients[index].backoff.attempts > 1
                dispatch(index, attempt: attempt, isRetry: isRetry, using: &random, to: &server)
            case .server(let number): server.handle(event, number: number, &self)
            }
        }
        // Every session has ended: what the steps did not report.
        progress?.add(starts.count - sessionsEnded / RunProgress.step * RunProgress.step)
        try server.finish(&counters)
    }

    /// The report, once every client is done; frees the recorder.
    mutating func finish() throws(SimulationError) -> ScenarioReport {
        defer { timeline.deallocate() }
        counters.tokenWaitTotal = gate.tokenWaitTotal
        if timeline.overflowed {
            throw .tooManyBuckets(
                needed: Double(counters.lastCompletion / scenario.bucketNanoseconds + 1), limit: timeline.limit)
        }
        return counters.report(timeline: timeline.timeline)
    }

    // MARK: Attempts

    /// The client starts an attempt; it waits for a token of the client-side rate limiter, if there
    /// is one and it is on; then the shared limits let it go or not, and the server takes it.
    mutating func send(_ index: Int, to server: inout Server) {
        var random = ClientRandom(streams: streams, client: index)
        let (attempt, isRetry) = beginAttempt(&clients[index], at: now, using: &random)
        if !isRetry { gate.requestStarted(at: now.nanoseconds) }
        if waitsForToken(index, first: true) { return }
        dispatch(index, attempt: attempt, isRetry: isRetry, using: &random, to: &server)
    }

    /// Whether the attempt must wait for a token of the client-side rate limiter: if so, it looks
    /// again (a `dispatch` event, carrying its wait's generation) when the bucket should hold one
    /// or when the limiter wakes it, counted as one attempt that waited (`first`).
    @inline(__always)
    mutating func waitsForToken(_ index: Int, first: Bool) -> Bool {
        let wait = gate.tokenWait(client: index, at: now.nanoseconds)
        scheduleTokenWakes()
        guard wait > 0 else { return false }
        if first { counters.tokenWaits += 1 }
        if wait < .max {
            let generation = Int64(gate.tokenWaitGeneration(client: index))
            simulation.schedule(ScenarioEvent(kind: .dispatch, client: index, value: generation), after: wait)
        }
        return true
    }

    /// The waiters the limiter woke look again now.
    @inline(__always)
    mutating func scheduleTokenWakes() {
        while let (client, generation) = gate.popTokenWake() {
            simulation.schedule(ScenarioEvent(kind: .dispatch, client: client, value: Int64(generation)), after: 0)
        }
    }

    /// The attempt leaves the client: the shared limits let it go or not; the server takes it.
    @inline(__always)
    mutating func dispatch(
        _ index: Int, attempt: Int64, isRetry: Bool, using random: inout ClientRandom, to server: inout Server
    ) {
        guard gate.admitsAttempt(at: now.nanoseconds, using: &random) else {
            counters.localRejections += 1
            deliver(.rejectedLocally, to: index)
            return
        }
        server.receive(client: index, attempt: attempt, isRetry: isRetry, &self)
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
        if !attempt.isRetry { counters.uniqueRequests += 1 }
        return attempt
    }

    /// An attempt reached the server at `time`: counted, with its outcome when answered at once.
    @inline(__always)
    mutating func countAttempt(isRetry: Bool, at time: VirtualTime, answeredAtOnce outcome: AttemptOutcome?) {
        counters.attempts += 1
        if let outcome {
            timeline.recordAttempt(at: time, isRetry: isRetry, answeredAtOnce: outcome)
        } else {
            timeline.recordAttempt(at: time, isRetry: isRetry)
        }
    }

    /// Schedules the client's timeout for its attempt `attempt`, when the scenario has one.
    mutating func scheduleTimeout(_ index: Int, attempt: Int64) {
        guard let timeout = scenario.timeoutNanoseconds else { return }
        simulation.schedule(
            ScenarioEvent(kind: .timeout, client: index, value: attempt), after: timeout, priority: 1,
            lane: Self.timeoutLane)
    }

    /// The client stops waiting for its attempt `attempt`, unless it was answered already.
    mutating func timeOut(_ index: Int, attempt: Int64) {
        guard clients[index].isAwaiting(attempt) else { return }
        counters.timeouts += 1
        timeline.recordTimeout(at: now)
        deliver(.timeout, to: index)
    }

    mutating func schedule(_ kind: ScenarioEvent.Kind, _ client: Int, value: Int64 = 0, after delay: Int64) {
        simulation.schedule(ScenarioEvent(kind: kind, client: client, value: value), after: delay)
    }

    // MARK: Carrying out the clients' actions

    /// Hands an answer to the client and schedules what it does next.
    @inline(__always)
    mutating func deliver(_ answer: ClientAnswer, to index: Int) {
        var random = ClientRandom(streams: streams, client: index)
        if let next = carryOut(answer, for: &clients[index], index, at: now, using: &random) {
            simulation.schedule(ScenarioEvent(kind: .send, client: index), at: next)
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
        // What the limits hear, read once (a pattern each: cheaper than the enum's ==).
        var (success, throttled, timedOut, local) = (false, false, false, false)
        switch answer {
        case .success: success = true
        case .failure: throttled = scenario.failureKind == .throttling
        case .timeout: timedOut = true
        case .rejectedLocally: local = true
        case .permanentError, .deadlineExceeded: break
        }
        if !local {
            gate.recordAnswer(
                success: success, throttled: throttled, client: index, wasRetry: client.backoff.attempts > 1,
                at: time.nanoseconds)
        }
        var action = client.answered(answer, at: time, policy: policy, behaviour: behaviour, using: &random)
        if case .retry = action,
            !gate.grantsRetry(client: index, afterTimeout: timedOut, at: time.nanoseconds)
        {
            action = client.refuseRetry(at: time, behaviour: behaviour)
        }
        if !local {
            var retried = false
            if case .retry = action { retried = true }
            gate.feedRateLimiter(
                success: success, throttled: throttled, retried: retried, client: index, at: time.nanoseconds
            )
            scheduleTokenWakes()
            if let rate = gate.meanFillRate { timeline.recordFillRate(at: time, rate) }
        }
        switch action {
        case .retry(let next):
            gate.retryScheduled(client: index)
            counters.retryWaits(next.nanoseconds - time.nanoseconds, capWait: capWait)
            return next
        case .endRequest(let outcome, let next, let unsent):
            counters.count(outcome, unsent: unsent)
            if outcome.isLost && next == nil && scenario.onGiveUp == .endSession && scenario.requestsPerClient > 1 {
                counters.deadSessions += 1
            }
            gate.requestEnded(client: index)
            // The request's total wait: its backoff, and its waits for the rate limiter's tokens.
            let totalWait = waited + gate.takeRequestTokenWait(client: index)
            counters.requestEnded(
                slot: index * scenario.requestsPerClient + request, totalWait: totalWait,
                start: requestStart.nanoseconds, end: time.nanoseconds)
            counters.batchRequestEnded(session: index, succeeded: outcome == .succeeded, totalWait: totalWait)
            if logsRequests {
                log(
                    client: index, request: request, start: requestStart, end: time, attempts: client.backoff.attempts,
                    totalWait: totalWait, outcome: outcome)
            }
            if next == nil { sessionEnded(index, attempts: client.attempts) }
            return next
        }
    }

    /// The session of client `index` ended: counted, and reported to `progress` every
    /// ``RunProgress/step`` sessions.
    @inline(__always)
    mutating func sessionEnded(_ index: Int, attempts: Int) {
        counters.sessionEnded(index, attempts: attempts)
        sessionsEnded += 1
        if sessionsEnded % RunProgress.step == 0 { progress?.add(RunProgress.step) }
    }

    /// Whether requests go to a log: tested on the hot path without touching the log itself (no
    /// reference count traffic for runs without one).
    var logsRequests: Bool { requestLog != nil }

    /// The request's row goes to the log (off the hot path: only a run with a log comes here).
    @inline(never)
    mutating func log(
        client index: Int, request: Int, start: VirtualTime, end: VirtualTime, attempts: Int, totalWait: Int64,
        outcome: RequestOutcome
    ) {
        guard let requestLog else { return }
        var copies = attempts
        if !requestCopies.isEmpty {
            copies = Int(requestCopies[index])
            requestCopies[index] = 0
        }
        requestLog.requestEnded(
            RequestRecord(
                client: index, request: request, start: start, completion: end, attempts: attempts, copies: copies,
                totalWait: .nanoseconds(totalWait), outcome: outcome))
    }
}
