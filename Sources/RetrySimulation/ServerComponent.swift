import BackoffPolicies
import EventSimulation

/// A server model declared in one place: how `--server` names it and reads its parameters, its
/// help, the ranges it accepts, what its failures carry, its closed form where it has one, and the
/// machine that runs it. The command line, the help, validation, the closed forms and the run take
/// all of it from here, so a new server model is its own file (this declaration, and its machine
/// beside it) and one line in ``ServerComponents/registered``: no switch elsewhere lists it.
///
/// A component is a value (its parameters), held by ``ServerModel/component(_:)``. Its machine
/// conforms to the simulator's server protocol, which is internal to this module: a component is
/// declared here, where ``run(on:)`` can name its machine's type so that the run is specialised
/// for it.
public protocol ServerComponent: Hashable, Sendable {
    /// The name `--server` takes, before any `:` (e.g. `ratelimit`).
    static var name: String { get }
    /// Its form in the list of accepted models, e.g. `ratelimit:RATE[:burst=B]` and what the
    /// parameters may be; an error for a bad `--server` names every model's form.
    static var form: String { get }
    /// Its name in the help's left column, e.g. `ratelimit:R`.
    static var usage: String { get }
    /// The help's paragraph, lines of at most 82 characters (the help is 100 wide), without indentation.
    static var help: [String] { get }

    /// The model that `--server name:parameters` (or `--server name`, with `parameters` `nil`)
    /// gives, with its defaults for what it omits; `nil` when the text is not of the ``form``.
    /// Ranges are ``validate()``'s to check, so that an error names the bad value.
    init?(parameters: String?)
    /// The canonical text of the model, as `--server` reads it and the CSV `server` column shows it.
    var specText: String { get }

    /// Throws when a parameter is out of its range.
    func validate() throws(SimulationError)

    /// The kind of every failure the server answers with, when the server decides it (a rate
    /// limiter's are throttling errors); `nil` when the scenario's failure kind applies.
    var failureKind: FailureKind? { get }
    /// When the server recovers (for `--retry-trigger recovery`); `nil` for one that never does.
    var recoveryTime: VirtualTime? { get }
    /// Whether a failure from it can carry a Retry-After.
    var sendsRetryAfter: Bool { get }
    /// Whether its answers take time, so that a client's `--timeout` applies (a capacity server's
    /// do; an instant server's never keep a client waiting). False by default.
    var takesTimeouts: Bool { get }
    /// Whether its machine keeps nothing of a session once the session has ended, so that a run
    /// may give the session's slot to another (``Scenario/recyclesClients``). False by default.
    var reusesSlots: Bool { get }

    /// The expected attempts per client, total wait (seconds) and share of clients that succeed
    /// in `scenario` (whose server this is), where the component has a closed form for it;
    /// `nil` to leave it to the scenario's general forms (layers, bursts).
    func closedForm(in scenario: Scenario) -> (
        attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double
    )?

    /// What its machine holds in a run of `scenario` beyond the clients' own state, for the run's
    /// memory estimate. None by default.
    func memory(in scenario: Scenario) -> [MemoryEstimate.Item]

    /// Runs the scenario on the component's machine: `runner.run(Machine.self)`.
    func run(on runner: ServerRunner) throws -> ScenarioReport
}

extension ServerComponent {
    public var failureKind: FailureKind? { nil }
    public var recoveryTime: VirtualTime? { nil }
    public var sendsRetryAfter: Bool { false }
    public var reusesSlots: Bool { false }
    public var takesTimeouts: Bool { false }
    public func memory(in scenario: Scenario) -> [MemoryEstimate.Item] { [] }

    public func closedForm(in scenario: Scenario) -> (
        attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double
    )? { nil }
}

/// What a component's ``ServerComponent/run(on:)`` is handed: the scenario's run, ready to be
/// carried out on the component's machine.
public struct ServerRunner {
    let scenario: Scenario
    let starts: ArrivalSequence
    let recycles: Bool
    let seed: UInt64
    let requestLog: (any RequestLog)?
    let exactQuantileLimit: Int
    let progress: RunProgress?

    /// The run on `Machine`, under the scenario's layers when it has some; specialised for
    /// `Machine` where a component names it.
    func run<Machine: ComponentMachine>(_: Machine.Type) throws -> ScenarioReport {
        try scenario.runEventOrdered(
            Machine.self, starts: starts, recycles: recycles, seed: seed, requestLog, exactQuantileLimit, progress)
    }
}

/// A component of any type, as ``ServerModel/component(_:)`` holds it: equal to another when both
/// are of one type with equal parameters.
public struct AnyServerComponent: Hashable, Sendable {
    /// The component.
    public let base: any ServerComponent

    /// The box of `base`.
    /// - Parameter base: The component.
    public init(_ base: some ServerComponent) { self.base = base }

    public static func == (lhs: Self, rhs: Self) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }

    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(base)) }
}

/// A component's machine: the simulator's server, made from its component's value.
protocol ComponentMachine: StackableServer {
    associatedtype Model: ServerComponent
    /// The machine of `model`, in a run of `scenario` (whose server `model` is) under `seed`.
    init(_ model: Model, scenario: Scenario, seed: UInt64)
}

extension ComponentMachine {
    /// A run builds its server from its scenario: a component's machine from the scenario's
    /// component, which is its model, since only the model's ``ServerComponent/run(on:)`` names it.
    init(scenario: Scenario, seed: UInt64) {
        guard case .component(let component) = scenario.server, let model = component.base as? Model else {
            preconditionFailure("\(Self.self) runs \(Model.self), not \(scenario.server)")
        }
        self.init(model, scenario: scenario, seed: seed)
    }

    /// Its counts are its decisions', by default: nothing to add at the end.
    func finish(_ counters: inout ScenarioCounters) throws(SimulationError) {}
}
