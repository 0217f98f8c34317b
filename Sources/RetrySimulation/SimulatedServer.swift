import EventSimulation
import Stochastics

/// A server model as the scenario driver runs it: it holds its own state, and for each attempt that
/// reaches it, and each of its own events, it says what it decided through ``ServerDecisions``. The
/// driver counts and carries out each decision, in the order given: a server never touches the
/// driver's clients, counters, timeline or engine.
///
/// The driver is generic over its server (and a server over its decisions), so every call is
/// specialised. A new server model is one new file: a type conforming to this protocol, chosen in
/// `Scenario.run`.
protocol SimulatedServer {
    /// The server of `scenario`, whose run draws under `seed`.
    init(scenario: Scenario, seed: UInt64)

    /// An attempt of client `client` (its number `attempt`, a retry or not) reaches the server at
    /// `decisions.now`; the driver has begun it and let it past the shared limits.
    mutating func receive<Decisions: ServerDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions)

    /// One of the server's own events (kind `.server(number)`), at `decisions.now`.
    mutating func handle<Decisions: ServerDecisions>(
        _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions)

    /// The run is over: the server adds what it counted itself to the run's counters, or throws
    /// when it could not hold the run.
    func finish(_ counters: inout ScenarioCounters) throws(SimulationError)

    /// Whether the server makes attempts of its own for a client's (a stack's layers retry, a
    /// hedge sends copies), so that a session's server attempts are not its client's attempts:
    /// the driver then attributes each server attempt to its session (``ServerDecisions/counted(_:isRetry:answeredAtOnce:)``).
    /// A constant of the type, so a plain server's run pays nothing for it.
    static var makesAttemptsOfItsOwn: Bool { get }

    /// Whether every attempt the server receives leaves it through exactly one of
    /// ``ServerDecisions``' `answer(_:_:recording:)`, `reject(_:retryAfter:)`, `wasted(_:attempt:)`
    /// or `dropped(_:attempt:)`, so that the driver knows when it holds none of a session's
    /// attempts and may give the session's slot to another (``ClientSlots``).
    static var releasesEveryAttempt: Bool { get }

    /// How many kinds of its own events the server schedules (``ScenarioEvent/Kind/server(_:)``),
    /// those of the servers inside it included. A server numbers its events from 0; one made of
    /// others numbers its own first and those of each server inside it after them (the inner
    /// server's decisions shift them, ``NestedDecisions/eventBase``), so no number is kept by hand
    /// across servers: what a run may hold is checked once, against ``ScenarioEvent/serverKinds``.
    static var eventKinds: UInt32 { get }
}

extension SimulatedServer {
    static var makesAttemptsOfItsOwn: Bool { false }
    static var releasesEveryAttempt: Bool { false }
}

/// A server made from its ``ServerModel`` alone (every model but a stack of layers).
protocol ModelledServer: SimulatedServer {
    /// The server of `model`; called only with a model of this server's kind.
    init(_ model: ServerModel)
}

/// A server whose work for an attempt can be taken back before it ends: a replica behind
/// `HedgedReplicas`, whose losing copies are cancelled.
protocol WithdrawableServer: ModelledServer {
    /// The work for `client`'s attempt `attempt` is withdrawn now: one being served (`inService`)
    /// frees its worker at once, one in the queue stops counting there and is dropped when reached
    /// (`ServerDecisions.isWithdrawn` says so then). Its service-done event, if any, the caller drops.
    mutating func withdraw<Decisions: ServerDecisions>(
        client: Int, attempt: Int64, inService: Bool, _ decisions: inout Decisions)
}

extension ModelledServer {
    init(scenario: Scenario, seed: UInt64) { self.init(scenario.server) }

    func finish(_ counters: inout ScenarioCounters) throws(SimulationError) {}
}

/// What a server may decide, and what it may read, about the attempts it serves. The scenario driver
/// implements it (``ScenarioRun``): each decision is counted there, once, and carried out there.
protocol ServerDecisions {
    /// The instant of the attempt or event being handled.
    var now: VirtualTime { get }
    /// Client `client`'s random stream: a server draws what concerns a client (a hop, a service time)
    /// from that client's stream, so no number depends on the order clients are handled in.
    func random(for client: Int) -> ClientRandom
    /// An exponential draw with mean `mean` and a lognormal(mu, sigma) draw, from the client's stream
    /// through GSL. (A normal draw is GSL's ziggurat, which a server runs on ``random(for:)``'s
    /// stream itself, as the contention model's hops do.)
    func exponential(for client: Int, mean: Double) -> Double
    func lognormal(for client: Int, mu: Double, sigma: Double) -> Double
    /// Whether `client` still waits for its attempt `attempt` (it has not timed out).
    func isAwaiting(_ client: Int, attempt: Int64) -> Bool
    /// Whether `client`'s request meets a permanent error (drawn at its first attempt).
    func isPermanent(_ client: Int) -> Bool
    /// Whether `client`'s current attempt is a retry.
    func isRetrying(_ client: Int) -> Bool
    /// Whether the work for `client`'s attempt `attempt` is cancelled: its caller stopped waiting
    /// and said so (deadline propagation), so a queued attempt is dropped unserved.
    func isCancelled(_ client: Int, attempt: Int64) -> Bool
    /// Whether the work for `client`'s attempt `attempt` was withdrawn (a hedge's cancelled loser):
    /// the server let it go already, so a queued entry of it is dropped. Always false for a client.
    func isWithdrawn(_ client: Int, attempt: Int64) -> Bool
    /// When `client`'s current request started (its first attempt).
    func requestStart(of client: Int) -> VirtualTime

    /// An attempt of `client` reached the server now: count it, answered at once with `outcome` or not.
    mutating func counted(_ client: Int, isRetry: Bool, answeredAtOnce outcome: AttemptOutcome?)
    /// Answer `client` now with `answer`; `outcome` is the answer as the load timeline counts it,
    /// when the attempt was not answered at once.
    mutating func answer(_ client: Int, _ answer: ClientAnswer, recording outcome: AttemptOutcome?)
    /// Refuse the attempt at once (a full queue), carrying the server's delay.
    mutating func reject(_ client: Int, retryAfter: Int64?)
    /// Record an answer the server gave now in the load timeline, and a rejection (a stack
    /// records its bottom layer's answers there, and hands them to the layer itself).
    mutating func recordAnswer(_ outcome: AttemptOutcome)
    mutating func recordRejection()
    /// The queue now holds `length` attempts.
    mutating func queued(length: Int)
    /// A worker began serving `client`'s attempt `attempt` now.
    mutating func serviceStarted(_ client: Int, attempt: Int64)
    /// Work was done for `client`'s attempt `attempt`, but its client had stopped waiting.
    mutating func wasted(_ client: Int, attempt: Int64)
    /// The server dropped `client`'s queued attempt `attempt` unserved: its caller had stopped
    /// waiting (``CapacityModel/dropsExpired``).
    mutating func dropped(_ client: Int, attempt: Int64)
    /// `client`'s hedge sent a copy of its attempt now (for the request's row in a request log).
    mutating func copySent(for client: Int)
    /// `client`'s hedge asks to send a copy after the first: the shared retry budget grants it as a
    /// retry (gRPC's token bucket only while its tokens exceed half of its maximum), or refuses it.
    mutating func grantsHedge(for client: Int) -> Bool
    /// A copy of `client`'s hedged attempt failed while the attempt goes on: the shared limits hear
    /// of a failed attempt (the attempt's own answer is recorded when it reaches the client).
    mutating func copyFailed(for client: Int)
    /// Schedule the server's own event `number` for `client`, `after` nanoseconds from now.
    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, after delay: Int64)
    /// Let `client` time out on `attempt`, if the scenario has a timeout.
    mutating func armTimeout(_ client: Int, attempt: Int64)
    /// Answer `client` at `time` (a reply that travels back), and begin its next attempt at once when
    /// it makes one: returns when that attempt starts, or `nil` when its session is over. The server
    /// takes the next attempt from there (contention's read leaves at once).
    mutating func answer(_ client: Int, _ answer: ClientAnswer, at time: VirtualTime) -> VirtualTime?
    /// Schedule the server's own event `number` for `client` at `time`.
    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, at time: VirtualTime)
}
