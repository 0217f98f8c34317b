import EventSimulation
import Stochastics

/// The driver carries out what its server decided, and counts it: every count and timeline record
/// of a served attempt is made here, once, whichever server decided it.
extension ScenarioRun: DriverDecisions {
    @inline(__always)
    func random(for client: Int) -> ClientRandom { ClientRandom(streams: streams, client: client) }

    @inline(__always)
    func exponential(for client: Int, mean: Double) -> Double { streams.exponential(client, mean: mean) }

    @inline(__always)
    func lognormal(for client: Int, mu: Double, sigma: Double) -> Double {
        streams.lognormal(client, mu: mu, sigma: sigma)
    }

    func isAwaiting(_ client: Int, attempt: Int64) -> Bool { clients[client].isAwaiting(attempt) }

    func isPermanent(_ client: Int) -> Bool { clients[client].isPermanent }

    func isRetrying(_ client: Int) -> Bool { clients[client].backoff.attempts > 1 }

    /// A client says nothing when it stops waiting: its work is never cancelled.
    static var mayCancelWork: Bool { false }

    @inline(__always)
    func takeCancellation(_ client: Int, attempt: Int64) -> Bool { false }

    /// A client never withdraws work: only a hedge's copies are.
    @inline(__always)
    func isWithdrawn(_ client: Int, attempt: Int64) -> Bool { false }

    func requestStart(of client: Int) -> VirtualTime { clients[client].requestStart }

    @inline(__always)
    mutating func counted(_ client: Int, isRetry: Bool, answeredAtOnce outcome: AttemptOutcome?) {
        countAttempt(isRetry: isRetry, at: now, answeredAtOnce: outcome)
        if Server.makesAttemptsOfItsOwn { counters.serverAttempt(of: slots.session(of: client)) }
    }

    @inline(__always)
    mutating func answer(_ client: Int, _ answer: ClientAnswer, recording outcome: AttemptOutcome?) {
        slots.attemptReleased(client)
        if let outcome { timeline.recordAnswer(at: now, outcome) }
        deliver(answer, to: client)
    }

    mutating func reject(_ client: Int, retryAfter: Int64?) {
        slots.attemptReleased(client)
        recordRejection()
        deliver(.failure(serverDelay: retryAfter), to: client)
    }

    mutating func recordAnswer(_ outcome: AttemptOutcome) { timeline.recordAnswer(at: now, outcome) }

    mutating func recordRejection() {
        counters.rejected += 1
        timeline.recordRejection(at: now)
        timeline.recordAnswer(at: now, .failure)
    }

    mutating func queued(length: Int) {
        counters.peakQueue = max(counters.peakQueue, length)
        timeline.recordQueueLength(at: now, length)
    }

    @inline(__always)
    mutating func serviceStarted(_ client: Int, attempt: Int64) {}

    mutating func wasted(_ client: Int, attempt: Int64) {
        slots.attemptReleased(client)
        counters.wastedWork += 1
    }

    mutating func dropped(_ client: Int, attempt: Int64) {
        slots.attemptReleased(client)
        counters.expiredDrops += 1
    }

    /// Counted per request only for a request log (the hedge's own tally counts every copy).
    mutating func copySent(for client: Int) {
        if !requestCopies.isEmpty { requestCopies[client] &+= 1 }
    }

    /// A hedge's copy after the first is a retry to the budget, as `Retrier.hedge` has it; once
    /// granted, it is a retry in flight until the request ends (a concurrency budget counts it, as
    /// Envoy's `max_retries` counts a hedge), with its cost on record (a quota's refund).
    mutating func grantsHedge(for client: Int) -> Bool {
        guard gate.grantsRetry(client: client, afterTimeout: false, at: now.nanoseconds) else { return false }
        gate.retryScheduled(client: client)
        return true
    }

    mutating func copyFailed(for client: Int) {
        gate.recordAnswer(success: false, throttled: false, client: client, wasRetry: true, at: now.nanoseconds)
    }

    @inline(__always)
    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, after delay: Int64) {
        schedule(.server(number), client, value: value, after: delay)
    }

    mutating func armTimeout(_ client: Int, attempt: Int64) { scheduleTimeout(client, attempt: attempt) }

    @inline(__always)
    mutating func answer(_ client: Int, _ answer: ClientAnswer, at time: VirtualTime) -> VirtualTime? {
        var random = ClientRandom(streams: streams, client: client)
        guard let next = carryOut(answer, for: &clients[client], client, at: time, using: &random) else { return nil }
        _ = beginAttempt(&clients[client], at: next, using: &random)
        return next
    }

    @inline(__always)
    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, at time: VirtualTime) {
        simulation.schedule(ScenarioEvent(kind: .server(number), client: client, value: value), at: time)
    }
}
