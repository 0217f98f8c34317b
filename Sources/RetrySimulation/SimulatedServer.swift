import EventSimulation
import Stochastics

/// A server model as the scenario driver runs it: it holds its own state, and for each attempt that
/// reaches it, and each of its own events, it says what it decided through ``ServerDecisions``. The
/// driver counts and carries out each decision, in the order given: a server never touches the
/// driver's clients, counters, timeline or engine.
///
/// The driver is generic over its server (and a server over its decisions), so every call is
/// specialised. A new server model is one new file: a type conforming to this protocol, named by
/// its model (``ServerComponent``); the replica set and the stack around it are composed by
/// `Scenario.runEventOrdered`.
///
/// What a server may decide depends on where it may sit, and its protocol says so: a server the
/// driver runs gets ``DriverDecisions``; one that may also sit below a stack's layers
/// (``StackableServer``) gets ``HedgeDecisions`` there; a replica behind a hedge
/// (``WithdrawableServer``) gets ``ServerDecisions`` alone. A server meets all of its places with
/// one method generic over the least it needs, so no wrapper has a decision it must refuse.
protocol SimulatedServer {
    /// The server of `scenario`, whose run draws under `seed`.
    init(scenario: Scenario, seed: UInt64)

    /// An attempt of client `client` (its number `attempt`, a retry or not) reaches the server at
    /// `decisions.now`; the driver has begun it and let it past the shared limits.
    mutating func receive<Decisions: DriverDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions)

    /// One of the server's own events (kind `.server(number)`), at `decisions.now`.
    mutating func handle<Decisions: DriverDecisions>(
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

/// A server that may sit below a ``ServiceStack``'s layers: its "clients" are the bottom layer's
/// calls, which may be hedged (``HedgedReplicas``), so it decides at most what a hedge decides.
/// Every model but contention, whose answers travel ahead of the driver's events.
protocol StackableServer: SimulatedServer {
    mutating func receive<Decisions: HedgeDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions)

    mutating func handle<Decisions: HedgeDecisions>(
        _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions)
}

/// A server whose work for an attempt can be taken back before it ends: a replica behind
/// `HedgedReplicas`, whose losing copies are cancelled. Its "clients" are copies, and it decides
/// only what any server decides.
protocol WithdrawableServer: ModelledServer, StackableServer {
    /// One host of the model's replica set, misbehaving as `fault` says when it is one of the
    /// faulty hosts (``FaultyHosts``).
    init(_ model: ServerModel, fault: HostFault?)

    mutating func receive<Decisions: ServerDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions)

    mutating func handle<Decisions: ServerDecisions>(
        _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions)

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
