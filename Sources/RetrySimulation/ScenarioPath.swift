/// How a scenario run goes through its clients. Every path that applies to a scenario gives the
/// very same report (tested), because each client draws from its own stream whatever the order.
///
/// ```
/// eventOrdered    the event engine: any server, any limits; a session's slot passes to a new
///                 session once it has ended where the scenario allows (``Scenario/recyclesClients``)
/// slotPerSession  eventOrdered with a slot for every session, kept to the end (the engine's way
///                 before slots were reused; tests compare the two)
/// clientByClient  one client's whole session after the other, no event queue: servers that answer
///                 at once (always-fail, bernoulli, outage), no shared limits
/// plainHerd       clientByClient without the session state machine: additionally one request per
///                 client, no permanent errors, retries on the timer, and no Retry-After in play
/// ```
enum ScenarioPath: Sendable {
    case eventOrdered
    case slotPerSession
    case clientByClient
    case plainHerd

    /// The paths that apply to `scenario`, slowest first.
    static func applicable(to scenario: Scenario) -> [ScenarioPath] {
        guard scenario.runsClientByClient else {
            return scenario.recyclesClients ? [.slotPerSession, .eventOrdered] : [.eventOrdered]
        }
        return scenario.isPlainHerd ? [.eventOrdered, .clientByClient, .plainHerd] : [.eventOrdered, .clientByClient]
    }
}
