import EventSimulation
import Stochastics

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
    /// Whether some decisions of this type may cancel work (``takeCancellation(_:attempt:)``): a
    /// constant of the type, so that a server the clients reach directly pays nothing to ask.
    static var mayCancelWork: Bool { get }
    /// Whether the work for `client`'s attempt `attempt` was withdrawn (a hedge's cancelled loser):
    /// the server let it go already, so a queued entry of it is dropped. Always false for a client.
    func isWithdrawn(_ client: Int, attempt: Int64) -> Bool
    /// When `client`'s current request started (its first attempt).
    func requestStart(of client: Int) -> VirtualTime

    /// Whether the work for `client`'s queued attempt `attempt` is cancelled: its caller stopped
    /// waiting and said so (deadline propagation, a hedge above that cancelled its loser). The
    /// server then drops the entry unserved, and the decisions have settled it (a cancellation
    /// taken, a replica's copy ended): asked once per entry, as the server dequeues it.
    mutating func takeCancellation(_ client: Int, attempt: Int64) -> Bool
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
    /// Schedule the server's own event `number` for `client`, `after` nanoseconds from now.
    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, after delay: Int64)
    /// Let `client` time out on `attempt`, if the scenario has a timeout.
    mutating func armTimeout(_ client: Int, attempt: Int64)
    /// Schedule the server's own event `number` for `client` at `time`.
    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, at time: VirtualTime)
}

/// What a hedge decides besides, about its copies, of whatever it answers: the run's driver (a
/// client's hedge) or a stack's bottom layer (the layer's hedge). ``HedgedReplicas`` needs it; the
/// replicas behind it do not.
protocol HedgeDecisions: ServerDecisions {
    /// `client`'s hedge sent a copy of its attempt now (for the request's row in a request log).
    mutating func copySent(for client: Int)
    /// `client`'s hedge asks to send a copy after the first: the shared retry budget grants it as a
    /// retry (gRPC's token bucket only while its tokens exceed half of its maximum), or refuses it.
    mutating func grantsHedge(for client: Int) -> Bool
    /// A copy of `client`'s hedged attempt failed while the attempt goes on: the shared limits hear
    /// of a failed attempt (the attempt's own answer is recorded when it reaches the client).
    mutating func copyFailed(for client: Int)
}

/// What only the run's driver carries out: an answer ahead of the events, which only a server the
/// clients reach directly may give (contention's).
protocol DriverDecisions: HedgeDecisions {
    /// Answer `client` at `time` (a reply that travels back), and begin its next attempt at once when
    /// it makes one: returns when that attempt starts, or `nil` when its session is over. The server
    /// takes the next attempt from there (contention's read leaves at once).
    mutating func answer(_ client: Int, _ answer: ClientAnswer, at time: VirtualTime) -> VirtualTime?
}
