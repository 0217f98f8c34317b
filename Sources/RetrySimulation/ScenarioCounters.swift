import BackoffPolicies
import Stochastics

/// What a scenario run counts as it goes, and the ``ScenarioReport`` it makes of them.
struct ScenarioCounters {
    var sessions = 0
    var attempts = 0, uniqueRequests = 0, successes = 0, giveUps = 0, permanentFailures = 0
    var requestsLost = 0, deadSessions = 0, budgetDenials = 0, localRejections = 0
    /// Capacity servers: attempts rejected by a full queue, timed out, served for nobody; the longest queue.
    var rejected = 0, timeouts = 0, wastedWork = 0, expiredDrops = 0, peakQueue = 0
    /// Attempts that waited for a token of the client-side rate limiter, and their waits in all (ns).
    var tokenWaits = 0, tokenWaitTotal: Int64 = 0
    /// Requests whose deadline passed while an attempt was in flight (`--deadline`).
    var deadlineExceeded = 0
    /// A stack of service layers (`--layer`): the attempts the clients sent into it (-1 without
    /// one: the server's are the clients'), the server's attempts answered for nobody, each layer's
    /// tally. Filled in by the stack when the run ends.
    var clientAttempts = -1, orphanedAttempts = 0
    var layers: [LayerTally] = []
    /// Copies after the first that the clients' hedge sent into a stack (`--hedge` with layers).
    var clientHedgeCopies = 0
    /// The hedged requests' tally, filled in when the run goes through replicas (`nil` otherwise).
    var hedge: HedgeTally?
    /// Per request (client-major, `requestsPerClient` slots each), in seconds, NaN for a request never
    /// sent: the same order whichever way the run goes, so the summary's sums are the same too.
    /// Kept while the requests number at most `Scenario.exactQuantileLimit`; empty beyond.
    var totalWaits: [Double] = []
    /// Beyond `Scenario.exactQuantileLimit` requests, their total waits in constant memory: exact
    /// sums and a quantile sketch, the same whatever order the requests end in.
    var streamedWaits = MergeableSummary(unit: 1e9)
    /// Whether the total waits are kept one by one (`totalWaits`) or streamed (`streamedWaits`).
    let keepsTotalWaits: Bool
    /// Requests that ended (the entries of `totalWaits` that are not NaN).
    var endedRequests = 0
    /// Σ (end - first attempt) over the requests that ended, in nanoseconds: each duration is at
    /// most virtual time's horizon (2^62 ns) and a run holds up to 2^40 clients' requests, so the
    /// sum needs more than 64 bits.
    var requestDurations = WideSum()
    var lastCompletion: Int64 = 0
    /// Σ (attempts of a session)², for the standard error of attempts per client: a session of 10
    /// requests of 10^9 attempts squares to 10^20, past 64 bits.
    var attemptSquares = WideSum()
    /// The waits before retries, and those equal to the policy's cap.
    var waits = WaitTally()
    /// Each session's server attempts, kept when they are not its client's own (a stack's layers
    /// retry, a hedge sends copies; ``attributesServerAttempts``): the standard error of
    /// attempts per client is then theirs, as the mean is. Empty otherwise.
    private var serverAttemptsBySession: [Int] = []
    /// Whether the run attributes its server attempts to sessions (``serverAttempt(of:)``).
    let attributesServerAttempts: Bool
    /// Batches of sessions for the standard errors, when the clients interact and arrive over
    /// time (``Scenario/usesBatchMeans``); `nil` otherwise.
    private var batches: SessionBatches?

    /// The total waits' quantiles a report holds.
    static let quantiles = [0.5, 0.99]

    /// Counters for `sessions` sessions of `requestsPerClient` requests each, keeping their total
    /// waits one by one up to `exactQuantileLimit` requests.
    init(
        sessions: Int, requestsPerClient: Int, exactQuantileLimit: Int, attributesServerAttempts: Bool = false,
        batchesSessions: Bool = false
    ) {
        self.sessions = sessions
        batches = batchesSessions ? SessionBatches(sessions: sessions) : nil
        self.attributesServerAttempts = attributesServerAttempts
        if attributesServerAttempts { serverAttemptsBySession = [Int](repeating: 0, count: sessions) }
        let (requests, overflow) = sessions.multipliedReportingOverflow(by: requestsPerClient)
        keepsTotalWaits = !overflow && requests <= exactQuantileLimit
        if keepsTotalWaits { totalWaits = [Double](repeating: .nan, count: requests) }
    }

    /// A request ended with `outcome`: counted once here for every path through the clients;
    /// `unsent` more requests of its session are lost with it.
    @inline(__always)
    mutating func count(_ outcome: RequestOutcome, unsent: Int) {
        switch outcome {
        case .succeeded: successes += 1
        case .permanentFailure: permanentFailures += 1
        case .gaveUp:
            giveUps += 1
            requestsLost += 1 + unsent
        case .deniedByBudget:
            budgetDenials += 1
            requestsLost += 1 + unsent
        case .rejectedLocally:
            requestsLost += 1 + unsent
        case .deadlineExceeded:
            deadlineExceeded += 1
            requestsLost += 1 + unsent
        }
    }

    /// A request ended at `end` (nanoseconds) after `start`, having waited `totalWait` nanoseconds.
    @inline(__always)
    mutating func requestEnded(slot: Int, totalWait: Int64, start: Int64, end: Int64) {
        if keepsTotalWaits {
            totalWaits[slot] = Double(totalWait) / 1e9
        } else {
            streamedWaits.add(totalWait)
        }
        endedRequests += 1
        requestDurations.add(low: UInt64(end - start))  // end >= start
        lastCompletion = max(lastCompletion, end)
    }

    /// A request of `session` ended in the event-ordered run: counted in its batch when the
    /// standard errors come from batches (the client-by-client paths never call this).
    @inline(__always)
    mutating func batchRequestEnded(session: Int, succeeded: Bool, totalWait: Int64) {
        batches?.requestEnded(session: session, succeeded: succeeded, totalWait: totalWait)
    }

    /// A client waits `wait` nanoseconds before its retry; `capWait` is the rounded cap (-1 for none).
    @inline(__always)
    mutating func retryWaits(_ wait: Int64, capWait: Int64) {
        waits.waits &+= 1  // counts of 64 bits: no overflow test
        waits.atCap &+= wait == capWait ? 1 : 0
    }

    /// A server attempt made on behalf of `session`.
    @inline(__always)
    mutating func serverAttempt(of session: Int) {
        serverAttemptsBySession[session] &+= 1
    }

    /// A session ended after `attempts` attempts in all.
    @inline(__always)
    mutating func sessionEnded(attempts: Int) {
        attemptSquares.addSquare(of: UInt64(attempts))
    }

    /// `session` ended after `attempts` attempts in all, in the event-ordered run.
    @inline(__always)
    mutating func sessionEnded(_ session: Int, attempts: Int) {
        sessionEnded(attempts: attempts)
        if !attributesServerAttempts { batches?.sessionEnded(session, attempts: attempts) }
    }

    /// Adds the counts of `other`, a run of other clients of the same scenario that streams its
    /// total waits: every count is an integer, so the sum is the same in any order.
    mutating func merge(_ other: ScenarioCounters) {
        precondition(!keepsTotalWaits && !other.keepsTotalWaits, "only streamed total waits merge")
        precondition(other.layers.isEmpty && other.hedge == nil, "stacks and replicas run as one")
        attempts += other.attempts
        uniqueRequests += other.uniqueRequests
        successes += other.successes
        giveUps += other.giveUps
        permanentFailures += other.permanentFailures
        requestsLost += other.requestsLost
        deadSessions += other.deadSessions
        budgetDenials += other.budgetDenials
        localRejections += other.localRejections
        rejected += other.rejected
        timeouts += other.timeouts
        wastedWork += other.wastedWork
        expiredDrops += other.expiredDrops
        peakQueue = max(peakQueue, other.peakQueue)
        tokenWaits += other.tokenWaits
        tokenWaitTotal += other.tokenWaitTotal
        deadlineExceeded += other.deadlineExceeded
        orphanedAttempts += other.orphanedAttempts
        streamedWaits.merge(other.streamedWaits)
        endedRequests += other.endedRequests
        requestDurations.add(other.requestDurations)
        lastCompletion = max(lastCompletion, other.lastCompletion)
        attemptSquares.add(other.attemptSquares)
        waits.waits += other.waits.waits
        waits.atCap += other.waits.atCap
    }

    /// The report, with the run's timeline; hands the total waits over to the summary (which
    /// reorders them in place, uncopied).
    mutating func report(timeline: LoadTimeline) -> ScenarioReport {
        let totalWait: Summary
        if endedRequests == 0 {
            totalWait = Summary([.nan])
        } else if keepsTotalWaits {
            var ended: [Double] = []
            swap(&ended, &totalWaits)
            if endedRequests != ended.count { ended = ended.filter { !$0.isNaN } }  // in order: the sums depend on it
            totalWait = Summary(ended, quantiles: Self.quantiles)
        } else {
            totalWait = streamedWaits.summary(quantiles: Self.quantiles)!
        }
        let n = Double(sessions)
        let mean = Double(attempts) / n
        if attributesServerAttempts {
            // The sessions' server attempts, the quantity whose mean attempts per client is.
            attemptSquares = WideSum()
            for count in serverAttemptsBySession { attemptSquares.addSquare(of: UInt64(count)) }
        }
        let variance = (attemptSquares.value - n * mean * mean) / (n - 1)
        var standardErrors = (
            attempts: sessions > 1 ? (max(0, variance) / n).squareRoot() : .nan,
            meanTotalWait: totalWait.standardError,
            successes: Self.binomialStandardError(successes, of: uniqueRequests)
        )
        if var batches {
            if attributesServerAttempts { batches.sessionsEnded(attempts: serverAttemptsBySession) }
            standardErrors = batches.standardErrors()
        }
        return ScenarioReport(
            clients: sessions, attempts: attempts,
            attemptsStandardError: standardErrors.attempts,
            meanTotalWaitStandardError: standardErrors.meanTotalWait,
            successesStandardError: standardErrors.successes,
            errorMethod: batches != nil ? .batchMeans : .independentSessions,
            uniqueRequests: uniqueRequests, successes: successes, giveUps: giveUps,
            permanentFailures: permanentFailures,
            requestsLost: requestsLost, deadSessions: deadSessions, rejected: rejected, timeouts: timeouts,
            wastedWork: wastedWork, expiredDrops: expiredDrops, peakQueue: peakQueue, budgetDenials: budgetDenials,
            localRejections: localRejections, tokenWaits: tokenWaits, tokenWaitTotal: Double(tokenWaitTotal) / 1e9,
            deadlineExceeded: deadlineExceeded, clientAttempts: clientAttempts < 0 ? attempts : clientAttempts,
            orphanedAttempts: orphanedAttempts, layers: layers, clientHedgeCopies: clientHedgeCopies,
            totalWait: totalWait,
            meanCompletion: endedRequests == 0
                ? .nan
                : requestDurations.value / Double(endedRequests) / 1e9,
            lastCompletion: Double(lastCompletion) / 1e9,
            waits: waits, timeline: timeline, hedge: hedge)
    }

    /// √(n p̂ (1 - p̂)), p̂ = successes / n: the binomial standard error of a count of successes.
    static func binomialStandardError(_ successes: Int, of n: Int) -> Double {
        let p = Double(successes) / Double(n)
        return (Double(n) * p * (1 - p)).squareRoot()
    }
}
