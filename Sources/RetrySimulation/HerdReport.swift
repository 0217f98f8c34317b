import Stochastics

/// What a ``HerdSimulation`` measured.
public struct HerdReport: Hashable, Sendable {
    public let clients: Int
    /// Attempts made by all clients together.
    public let attempts: Int
    /// The standard error of ``attemptsPerClient`` (sample sd of per-client attempts / √N).
    public let attemptsStandardError: Double
    /// Clients whose request succeeded.
    public let successes: Int
    /// Per-client total wait, in seconds.
    public let totalWait: Summary
    /// The mean time at which a client finished (succeeded or gave up), in seconds.
    public let meanCompletion: Double
    public let timeline: LoadTimeline

    /// Clients that gave up.
    public var giveUps: Int { clients - successes }
    /// Attempts per client.
    public var attemptsPerClient: Double { Double(attempts) / Double(clients) }
    /// The standard error of ``successes`` as a binomial count, √(N p̂ (1 - p̂)) with p̂ = successes / N.
    public var successesStandardError: Double {
        let p = Double(successes) / Double(clients)
        return (Double(clients) * p * (1 - p)).squareRoot()
    }
}
