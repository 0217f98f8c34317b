import BackoffPolicies
import EventSimulation
import Stochastics

/// What a ``Scenario`` run measured.
public struct ScenarioReport: Hashable, Sendable {
    /// Clients (sessions) that arrived.
    public let clients: Int
    /// Attempts made by all clients; for contention, writes (the calls the 2015 study counts).
    public let attempts: Int
    /// The standard error of ``attemptsPerClient``: the sample sd of per-client attempts / √N, or
    /// as ``errorMethod`` says.
    public internal(set) var attemptsStandardError: Double
    /// The standard error of the mean total wait (``totalWait``'s mean): the summary's own, or as
    /// ``errorMethod`` says.
    public internal(set) var meanTotalWaitStandardError: Double
    /// The standard error of ``successes``: binomial, √(n p̂ (1 - p̂)) over the n requests that
    /// ended, or as ``errorMethod`` says.
    public internal(set) var successesStandardError: Double
    /// How the standard errors (these three and the hedge's) were measured: the independent
    /// sessions' spread, batches in arrival order, replications, or not at all (NaN) for a burst of
    /// interacting clients run once.
    public internal(set) var errorMethod: StandardErrorMethod
    /// Requests sent (first attempts), across all sessions.
    public let uniqueRequests: Int
    /// Requests that succeeded.
    public let successes: Int
    /// Requests that ran out of attempts or time.
    public let giveUps: Int
    /// Requests ended by a permanent error at their first attempt.
    public let permanentFailures: Int
    /// Requests lost: given up, plus those never sent because their session ended.
    public let requestsLost: Int
    /// Sessions ended by a request that gave up (`end-session`).
    public let deadSessions: Int
    /// Attempts rejected at once by a full queue.
    public let rejected: Int
    /// Attempts the client stopped waiting for.
    public let timeouts: Int
    /// Attempts the server served after their client had timed out.
    public let wastedWork: Int
    /// Queued attempts the server dropped unserved because their caller had stopped waiting
    /// (``CapacityModel/dropsExpired``); 0 otherwise.
    public let expiredDrops: Int
    /// The most attempts waiting in a capacity server's queue at once.
    public let peakQueue: Int
    /// Retries the retry budget refused (each ended its request).
    public let budgetDenials: Int
    /// Attempts the client's breaker or throttle refused to send (each ended its request).
    public let localRejections: Int
    /// Attempts that waited for a token of the client-side rate limiter, and those waits in all,
    /// in seconds.
    public let tokenWaits: Int
    public let tokenWaitTotal: Double
    /// Requests whose deadline passed while an attempt was in flight (`Scenario/deadline`).
    public let deadlineExceeded: Int
    /// Attempts the clients sent: into the stack of layers, or (without one) to the server.
    public let clientAttempts: Int
    /// Server attempts answered when no caller could use the answer any more: some caller above
    /// (a layer or the client) had stopped waiting for the attempt that led to it. 0 without layers.
    public let orphanedAttempts: Int
    /// Each service layer's tally, top to bottom (empty without layers).
    public let layers: [LayerTally]
    /// Copies after the first that the clients' hedge sent into a stack (`--hedge` with layers: a
    /// copy of each attempt is a request to the top layer); 0 otherwise.
    public let clientHedgeCopies: Int
    /// Per-request total wait, in seconds.
    public let totalWait: Summary
    /// The mean time from a request's first attempt to its end (success, give-up or permanent
    /// error), in seconds.
    public let meanCompletion: Double
    /// When the last request ended, in seconds from t = 0.
    public let lastCompletion: Double
    /// The waits before retries, and how many of them equal the policy's cap.
    public let waits: WaitTally
    public let timeline: LoadTimeline
    /// What the hedged requests did, when the run went through replicas (``Scenario/runsReplicaSet``).
    public internal(set) var hedge: HedgeTally?

    /// Attempts per client.
    public var attemptsPerClient: Double { Double(attempts) / Double(clients) }
    /// Retries (attempts after a request's first) as a fraction of all attempts.
    public var retryFraction: Double { attempts > 0 ? Double(attempts - uniqueRequests) / Double(attempts) : 0 }
    /// Attempts per request sent.
    public var workAmplification: Double { Double(attempts) / Double(uniqueRequests) }
    /// Successful requests per second over the run (until the last request ended); 0 for an empty run.
    public var goodput: Double { lastCompletion > 0 ? Double(successes) / lastCompletion : 0 }
}
