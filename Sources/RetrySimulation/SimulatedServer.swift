/// A server model as the scenario driver runs it: it holds its own state and handles its own
/// events, and reaches the clients, the engine, the streams and the counters through the run.
///
/// The driver is generic over its server, so every call is specialised. The server lives beside
/// the run (not inside it) and is handed the run `inout`, so both can change at once. A new server
/// model is one new file: a type conforming to this protocol, chosen in `Scenario.run`.
protocol SimulatedServer {
    /// The server of `model`; called only with a model of this server's kind.
    init(_ model: ServerModel)

    /// An attempt of client `client` (its number `attempt`, a retry or not) reaches the server at
    /// `run.now`; the driver has begun it and let it past the shared limits.
    mutating func receive<Gate: RetryGate>(
        client: Int, attempt: Int64, isRetry: Bool, in run: inout ScenarioRun<Self, Gate>)

    /// One of the server's own events (kind `.server(number)`), at `run.now`.
    mutating func handle<Gate: RetryGate>(_ event: ScenarioEvent, number: UInt32, in run: inout ScenarioRun<Self, Gate>)
}
