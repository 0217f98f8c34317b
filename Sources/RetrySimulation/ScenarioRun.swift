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

    /// The engine, with an ordered lane for the timeouts (all after the same delay, so in the order
    /// they are scheduled). The arrivals stay outside its queue: the next one is drawn when the one
    /// before it arrives (``ArrivalSequence``, ``Simulation/advance(to:)``).
    var simulation = Simulation<ScenarioEvent>(lanes: 1)
    static var timeoutLane: Int { 0 }
    /// The clients of an event-ordered run by slot, in memory of their own (not an array stored in
    /// `self`), so a client is updated in place while the driver updates its counters.
    var clients = UnsafeMutableBufferPointer<SimulatedClient>(start: nil, count: 0)
    /// The session each slot holds, and, with recycling, when a slot passes to the next session.
    var slots: ClientSlots
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
    /// requests' total waits one by one up to `exactQuantileLimit` requests. With `recyclesClients`
    /// (an event-ordered run of a scenario that allows it), a session's slot passes to a new one
    /// once it has ended (``ClientSlots``).
    init(
        scenario: Scenario, sessions: Int, seed: UInt64, eventOrdered: Bool, recyclesClients: Bool = false,
        requestLog: (any RequestLog)? = nil,
        exactQuantileLimit: Int = Scenario.exactQuantileLimit, progress: RunProgress? = nil
    ) {
        self.scenario = scenario
        self.requestLog = requestLog
        self.progress = progress
        policy = scenario.clientPolicy
        behaviour = scenario.behaviour
        self.seed = seed
        slots = ClientSlots(recycles: eventOrdered && recyclesClients)
        precondition(!slots.recycles || Server.releasesEveryAttempt, "\(Server.self) does not release its attempts")
        precondition(
            Server.eventKinds <= ScenarioEvent.serverKinds,
            "\(Server.self) schedules \(Server.eventKinds) kinds of events, more than an event holds")
        // What the gate draws (a concurrency limit's probe), from a stream of its own: beyond every
        // client's (2^40 at most), the stack's (2^40) and the layer behaviours' (from 2^41).
        gate = Gate(
            limits: scenario.limits, clients: slots.recycles ? 0 : sessions, failureKind: scenario.failureKind,
            seed: SeedDerivation.streamSeed(root: seed, stream: 1 << 42))
        // Seeded as each session arrives, in the slot it takes (``arrive(_:to:)``).
        streams = ClientStreams(unseeded: eventOrdered && !slots.recycles ? sessions : 0)
        capWait = scenario.policy.roundedCap ?? -1
        timeline = LoadRecorder(bucketWidth: scenario.bucketNanoseconds)
        counters = ScenarioCounters(
            sessions: sessions, requestsPerClient: scenario.requestsPerClient, exactQuantileLimit: exactQuantileLimit,
            attributesServerAttempts: Server.makesAttemptsOfItsOwn, batchesSessions: scenario.usesBatchMeans)
    }

    var now: VirtualTime { simulation.now }

    /// Runs the clients through the event engine; a run that fails frees its recorder as
    /// ``finish()`` does, so a caller that catches the error loses no memory.
    mutating func runEventOrdered(_ arrivals: ArrivalSequence) throws(SimulationError) -> ScenarioReport {
        do throws(SimulationError) {
            try runEvents(arrivals)
        } catch {
            timeline.deallocate()
            throw error
        }
        return try finish()
    }

    /// The event loop of ``runEventOrdered(_:)``, up to the report.
    private mutating func runEvents(_ arrivals: ArrivalSequence) throws(SimulationError) {
        var arrivals = arrivals
        // Without recycling, a slot per session, as many as arrive; with it, grown as needed.
        clients = .allocate(capacity: slots.recycles ? 0 : arrivals.count)
        clients.initialize(repeating: SimulatedClient(policy: policy, requests: scenario.requestsPerClient))
        defer {
            clients.deallocate()  // SimulatedClient holds no references: nothing to deinitialize
            slots.deallocate()
            clients = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
        if requestLog != nil && scenario.runsReplicaSet {
            requestCopies = .allocate(capacity: arrivals.count)
            requestCopies.initialize(repeating: 0)
        }
        defer {
            requestCopies.deallocate()
            requestCopies = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
        var server = Server(scenario: scenario, seed: seed)
        // A session arrives before any event due at the same instant, as when every arrival was
        // scheduled before the run.
        var nextArrival = arrivals.next().map(VirtualTime.init(nanoseconds:))
        while true {
            let pending: ScenarioEvent?
            if let arrival = nextArrival {
                pending = simulation.step(before: arrival)
                if pending == nil {
                    simulation.advance(to: arrival)
                    let session = arrivals.handedOut - 1
                    nextArrival = arrivals.next().map(VirtualTime.init(nanoseconds:))
                    try arrive(session, to: &server)
                    continue
                }
            } else {
                pending = simulation.step()
            }
            guard let event = pending else { break }
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
        progress?.add(arrivals.count - sessionsEnded / RunProgress.step * RunProgress.step)
        assert(slots.allFree, "\(Server.self) kept attempts of ended sessions")
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
}
