/// What one host of a replica set did in a run (`simulate --hosts-report`): the copies the
/// balancer sent it, how the ones that reached their call were answered, its workers' busy time,
/// and, under outlier detection, its ejections.
public struct HostLoad: Hashable, Sendable {
    /// Copies sent to the host, the first ones of their calls included.
    public internal(set) var copies = 0
    /// Copies the host answered while their call waited for them: with a success, or with a
    /// failure (a full queue's rejection, a faulty host's failure, a refusal while it is down).
    /// A permanent error (the request's own), a copy withdrawn, or one answered after its caller
    /// stopped waiting, is neither.
    public internal(set) var successes = 0
    public internal(set) var failures = 0
    /// The host's workers' busy time for its copies, from each service's start to its end or
    /// withdrawal, in seconds.
    public var busySeconds: Double { Double(busyNanoseconds) / 1e9 }
    /// The host's ejections by outlier detection, and the seconds they were scheduled to last
    /// (from each start to the interval tick that brings it back); 0 without detection.
    public internal(set) var ejections = 0
    public var ejectedSeconds: Double { Double(ejectedNanoseconds) / 1e9 }

    var busyNanoseconds: UInt64 = 0
    var ejectedNanoseconds: UInt64 = 0

    public init() {}
}

extension HostLoad {
    /// The closed form of a host's share of the copies: 1/K for each of K hosts where each copy's
    /// host is drawn uniformly after whatever decided to send it (the conditions of
    /// ``Scenario/hostShareFormulaHolds``), so E[copies at a host] = E[copies]/K however failures
    /// drive the retries. Its standard error is then the binomial one, √(p(1 − p)/copies): given
    /// the copies, each lands on the host independently with probability p = 1/K.
    public static func shareStandardError(share p: Double, copies: Int) -> Double {
        copies > 0 ? (p * (1 - p) / Double(copies)).squareRoot() : .nan
    }
}
