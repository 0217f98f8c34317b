import EventSimulation

/// Sessions arrive one at a time: each is drawn when the one before it arrives, takes a slot
/// (``ClientSlots``) and seeds its stream there, so a run holds the sessions in flight, not the
/// sessions to come.
extension ScenarioRun {
    /// Session `session` arrives now: it takes a slot, where its stream is seeded as stream
    /// `session` of the run's seed, and starts its first attempt.
    mutating func arrive(_ session: Int, to server: inout Server) throws(SimulationError) {
        let slot = slots.take(session: session)
        if slot >= clients.count { try growSlots(to: slot + 1) }
        if slots.recycles {
            clients[slot] = clients[slot].nextSession(policy: policy, requests: scenario.requestsPerClient)
        }
        streams.reseed(slot, root: seed, stream: UInt64(session))
        send(slot, to: &server)
    }

    /// Room for at least `needed` slots (twice as many as before, or 1,024): the clients move to a
    /// larger allocation, and the streams and the limits' per-client state grow with them.
    private mutating func growSlots(to needed: Int) throws(SimulationError) {
        let limit = ScenarioEvent.maximumClients  // a client's number takes 28 bits of an event
        guard needed <= limit else { throw .tooManyClients(needed) }
        let capacity = min(limit, max(needed, 1024, 2 * clients.count))
        let grown = UnsafeMutableBufferPointer<SimulatedClient>.allocate(capacity: capacity)
        let moved = grown.moveInitialize(fromContentsOf: clients)
        grown[moved...].initialize(repeating: SimulatedClient(policy: policy, requests: scenario.requestsPerClient))
        clients.deallocate()
        clients = grown
        streams.grow(to: capacity)
        gate.addClients(upTo: capacity)
    }
}
