import EventSimulation
import Stochastics

/// What the server at the bottom of a ``ServiceStack`` decides, as the stack carries it out: its
/// "clients" are the bottom layer's calls (by slot). Its attempts, queue, waste and timeline
/// records go to the run's driver (`outer`), since the load is the server's; its answers go to
/// the calls, and up the stack from there. Its draws come from the stack's own stream for it.
///
/// It holds the driver by pointer, valid only while the stack handles one attempt or event.
struct StackDecisions<Outer: ServerDecisions>: ServerDecisions {
    let outer: UnsafeMutablePointer<Outer>
    let calls: StackCalls

    var now: VirtualTime { outer.pointee.now }

    private var serverStream: Int { calls.layers.count }

    func random(for client: Int) -> ClientRandom { calls.random(serverStream) }

    func normal(for client: Int, mean: Double, standardDeviation: Double) -> Double {
        calls.streams.normal(serverStream, mean: mean, standardDeviation: standardDeviation)
    }

    func exponential(for client: Int, mean: Double) -> Double { calls.streams.exponential(serverStream, mean: mean) }

    func lognormal(for client: Int, mu: Double, sigma: Double) -> Double {
        calls.streams.lognormal(serverStream, mu: mu, sigma: sigma)
    }

    func isAwaiting(_ client: Int, attempt: Int64) -> Bool { calls[client].awaits(attempt) }

    func isPermanent(_ client: Int) -> Bool { calls[client].isPermanent }

    func isRetrying(_ client: Int) -> Bool { calls[client].isRetry }

    /// With deadline propagation, an attempt its call stopped waiting for (its per-try timeout or
    /// its deadline passed) is cancelled; without, the server cannot know.
    func isCancelled(_ client: Int, attempt: Int64) -> Bool {
        calls.propagatesDeadline && !calls[client].awaits(attempt)
    }

    func isWithdrawn(_ client: Int, attempt: Int64) -> Bool { false }

    func requestStart(of client: Int) -> VirtualTime { calls[client].retries.requestStart }

    mutating func counted(isRetry: Bool, answeredAtOnce outcome: AttemptOutcome?) {
        outer.pointee.counted(isRetry: isRetry, answeredAtOnce: outcome)
    }

    /// The call in `client`'s slot is answered about its attempt in flight (the server answers an
    /// attempt only while its call waits for it, or at once).
    mutating func answer(_ client: Int, _ answer: ClientAnswer, recording outcome: AttemptOutcome?) {
        if let outcome { outer.pointee.recordAnswer(outcome) }
        if !calls.reachesClient(client, &outer.pointee) { calls.orphanedAttempts += 1 }
        calls.answered(client, tag: Int64(calls[client].attempt), answer, &outer.pointee)
    }

    mutating func reject(_ client: Int, retryAfter: Int64?) {
        outer.pointee.recordRejection()
        calls.answered(client, tag: Int64(calls[client].attempt), .failure(serverDelay: retryAfter), &outer.pointee)
    }

    mutating func recordAnswer(_ outcome: AttemptOutcome) { outer.pointee.recordAnswer(outcome) }

    mutating func recordRejection() { outer.pointee.recordRejection() }

    mutating func queued(length: Int) { outer.pointee.queued(length: length) }

    /// Work done for an attempt its call had stopped waiting for: wasted, and orphaned.
    mutating func serviceStarted(_ client: Int, attempt: Int64) {}

    mutating func wasted(_ client: Int, attempt: Int64) {
        outer.pointee.wasted(client, attempt: attempt)
        calls.orphanedAttempts += 1
    }

    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, after delay: Int64) {
        outer.pointee.schedule(number, for: client, value: value, after: delay)
    }

    /// The stack arms each layer's per-try timeouts itself, when the attempt leaves.
    mutating func armTimeout(_ client: Int, attempt: Int64) {}

    /// Only the contention model answers ahead like this, and it is never below a layer.
    mutating func answer(_ client: Int, _ answer: ClientAnswer, at time: VirtualTime) -> VirtualTime? {
        preconditionFailure("the contention model cannot sit below a layer")
    }

    mutating func schedule(_ number: UInt32, for client: Int, value: Int64, at time: VirtualTime) {
        outer.pointee.schedule(number, for: client, value: value, at: time)
    }
}
