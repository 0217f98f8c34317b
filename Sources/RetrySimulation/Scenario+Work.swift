extension Scenario {
    /// The most server attempts one run of this scenario can make: every request of every session
    /// failing every attempt at every tier (the clients' policy's n and each layer's, multiplied:
    /// ten tiers of 10 attempts make 10^10 per request), each attempt sending all its hedge copies
    /// (the clients' into a stack, and a layer's above the bottom, multiply the requests below them
    /// too), in each of the
    /// ``replications``. Reached against an always-failing server; a bound to refuse or announce a
    /// run by, before it starts (`simulate --work-limit`).
    public var attemptBound: Double {
        let tiers = layers.reduce(Double(policy.maxAttempts)) { $0 * Double($1.policy.maxAttempts) }
        // Above the replicas: the clients' copies into a stack, and each layer's above the bottom.
        let clientCopies = layers.isEmpty ? 1 : Double(hedging?.copies ?? 1)
        let layerCopies = layers.dropLast().reduce(clientCopies) { $0 * Double($1.hedging?.copies ?? 1) }
        return expectedSessions * Double(requestsPerClient) * tiers * layerCopies * Double(activeHedge?.copies ?? 1)
            * Double(replications)
    }

    /// Server attempts a second that a run of this kind makes on one core, roughly (measured with
    /// `simulate --jobs 1` on a 2-core AMD EPYC: an always-fail burst of 10^6 clients x 10 attempts,
    /// client by client, 10^7 attempts in 0.12 s; 10^5 clients behind a layer, 2.5 x 10^6 server
    /// attempts in 0.92 s), for the estimate a long run prints before it starts.
    public var attemptsPerSecond: Double { runsClientByClient ? 5e7 : 3e6 }
}
