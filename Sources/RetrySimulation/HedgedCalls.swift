import BackoffPolicies
import EventSimulation
import Stochastics

/// The hedged requests of a `HedgedReplicas` run and their copies, in two tables of slots (a slot
/// is reused once its request or copy ends), with what the requests decide as copies answer.
///
/// A reference, so the replicas' decisions wrapper (``HedgeDecisions``) and the server both reach
/// it while a replica is being called. Nothing here calls a replica: a copy to send or to withdraw
/// is queued (`pending`), and the server carries it out once the replica it is calling returns, so
/// no replica is ever re-entered.
final class HedgedCalls {
    /// A client's attempt, hedged.
    struct Call {
        var client: Int32
        var clientAttempt: Int64
        /// When it reached the replicas, and when its next copy is due (its timer's instant).
        var start: Int64, timerDue: Int64
        var id: Int32
        /// Copies sent, and those still in flight (queued or in service).
        var sent: Int32, inFlight: Int32
        /// The workers' busy time for its copies so far, in nanoseconds.
        var work: Int64
        var isAnswered: Bool, isPermanent: Bool, isRetry: Bool
    }

    /// One copy of a call at one replica.
    struct Copy {
        var call: Int32, replica: Int32, tag: Int32
        /// When its service started, -1 while it waits in a queue.
        var serviceStart: Int64
        var isLive: Bool
    }

    /// What the server carries out once the replica it called returns.
    enum Pending {
        /// The call (by slot and id) sends its next copy.
        case send(call: Int32, id: Int32)
        /// The copy (by slot and tag) is withdrawn from its replica.
        case withdraw(copy: Int32, tag: Int32)
    }

    let hedging: Hedging
    let replicas: Int
    /// The server's own event (after the replica's, which number theirs below 8).
    static let timerEvent: UInt32 = 8

    private(set) var calls: [Call] = []
    private(set) var copies: [Copy] = []
    private var freeCalls: [Int32] = [], freeCopies: [Int32] = []
    /// Each call's copies, `hedging.copies` slots per call slot (copy slots, in the order sent).
    private var callCopies: [Int32] = []
    private var nextID: Int32 = 0
    var pending: [Pending] = []
    private var pendingStart = 0

    // The tally.
    private var requests = 0, copiesSent = 0, withdrawn = 0
    private var work: Int64 = 0
    /// Σ (a call's work in seconds)² and Σ (a call's copies)², over the calls released.
    private var workSquares = 0.0, copySquares = 0.0
    private var responses: [Double] = []

    init(hedging: Hedging, replicas: Int) {
        self.hedging = hedging
        self.replicas = replicas
    }

    /// The most calls, or copies, in progress at once: an event names its slot in 28 bits.
    static let maximumSlots = ScenarioEvent.maximumClients
    private(set) var overflowed = false

    // MARK: Calls

    /// A client's attempt reaches the replicas: a new call, or `nil` when the table is full.
    func open(client: Int, attempt: Int64, isRetry: Bool, isPermanent: Bool, now: Int64) -> Int32? {
        requests += 1
        advanceID()
        let call = Call(
            client: Int32(client), clientAttempt: attempt, start: now, timerDue: -1, id: nextID, sent: 0,
            inFlight: 0, work: 0, isAnswered: false, isPermanent: isPermanent, isRetry: isRetry)
        if let slot = freeCalls.popLast() {
            calls[Int(slot)] = call
            return slot
        }
        guard calls.count < Self.maximumSlots else {
            overflowed = true
            return nil
        }
        calls.append(call)
        callCopies.append(contentsOf: repeatElement(-1, count: hedging.copies))
        return Int32(calls.count - 1)
    }

    /// The call sends its next copy to a replica that none of its copies used (any, once each
    /// has one), drawn with `uniform`; returns the copy's slot, tag and replica.
    func addCopy(to call: Int32, now: Int64, uniform: () -> Double) -> (slot: Int32, tag: Int32, replica: Int) {
        let c = Int(call)
        let sent = Int(calls[c].sent)
        let used = (0..<sent).map { Int(copies[Int(callCopies[c * hedging.copies + $0])].replica) }
        let replica = Self.pick(among: replicas, avoiding: used, uniform: uniform)
        advanceID()
        let copy = Copy(call: call, replica: Int32(replica), tag: nextID, serviceStart: -1, isLive: true)
        let slot: Int32
        if let free = freeCopies.popLast() {
            slot = free
            copies[Int(slot)] = copy
        } else {
            if copies.count >= Self.maximumSlots { overflowed = true }
            copies.append(copy)
            slot = Int32(truncatingIfNeeded: copies.count - 1)
        }
        callCopies[c * hedging.copies + sent] = slot
        calls[c].sent += 1
        calls[c].inFlight += 1
        copiesSent += 1
        return (slot, nextID, replica)
    }

    /// The next id or tag: run-unique while 2^32 calls and copies fit, never 0 (a released call's).
    private func advanceID() {
        nextID &+= 1
        if nextID == 0 { nextID = 1 }
    }

    /// A replica drawn uniformly among the `count` not in `used`, or among all when every one is.
    static func pick(among count: Int, avoiding used: [Int], uniform: () -> Double) -> Int {
        guard count > 1 else { return 0 }
        let avoided = Set(used).count < count ? Set(used) : []
        var index = min(Int(uniform() * Double(count - avoided.count)), count - avoided.count - 1)
        for replica in 0..<count where !avoided.contains(replica) {
            if index == 0 { return replica }
            index -= 1
        }
        preconditionFailure("a replica is always left to pick")
    }

    /// Whether a copy's attempt is still the live copy in its slot.
    func isLive(_ copy: Int, tag: Int64) -> Bool { copies[copy].isLive && Int64(copies[copy].tag) == tag }

    func call(of copy: Int) -> Call { calls[Int(copies[copy].call)] }

    func setTimer(_ call: Int32, due: Int64) { calls[Int(call)].timerDue = due }

    func serviceStarted(_ copy: Int, now: Int64) { copies[copy].serviceStart = now }

    // MARK: Copies ending

    /// The copy's work ended now (its service done, or a rejection before it began), with `answer`
    /// when its call still waits for it; returns the call's answer to its client when this settles
    /// it, and queues what the call does next (its next copy, the losers' withdrawal).
    func copyEnded(_ copy: Int, answer: ClientAnswer?, now: Int64, clientAwaits: Bool) -> ClientAnswer? {
        let c = Int(copies[copy].call)
        end(copy, now: now)
        guard let answer, !calls[c].isAnswered else {
            // A loser's end, or the last copy of a call whose client stopped waiting.
            if calls[c].inFlight == 0 { calls[c].isAnswered = true }
            releaseIfDone(c)
            return nil
        }
        switch answer {
        case .success, .permanentError:
            // The first success wins; a fatal error ends the call. Either way the others stop.
            if case .permanentError = answer {
                withdrawAll(of: c)
            } else if hedging.cancelsLosers {
                withdrawAll(of: c)
            }
            settle(c, now: now)
            return answer
        case .failure:
            // A non-fatal failure sends the next copy at once; the last one answers the call.
            if Int(calls[c].sent) < hedging.copies && clientAwaits {
                pending.append(.send(call: Int32(c), id: calls[c].id))
                return nil
            }
            guard calls[c].inFlight == 0 else { return nil }
            settle(c, now: now)
            return answer
        case .timeout, .rejectedLocally, .deadlineExceeded:
            preconditionFailure("a replica answers with a success, a failure or a permanent error")
        }
    }

    /// The call is answered now: its response time is recorded, and its slot freed once no copy
    /// is left in flight.
    private func settle(_ c: Int, now: Int64) {
        calls[c].isAnswered = true
        responses.append(Double(now - calls[c].start) / 1e9)
        releaseIfDone(c)
    }

    /// The copy in `slot` is withdrawn now, if it is still the live copy `tag`: returns its
    /// replica and whether it was in service, for the replica to let it go.
    func withdraw(_ slot: Int, tag: Int32, now: Int64) -> (replica: Int, inService: Bool)? {
        guard copies[slot].isLive, copies[slot].tag == tag else { return nil }
        let inService = copies[slot].serviceStart >= 0
        withdrawn += 1
        let replica = Int(copies[slot].replica)
        let c = Int(copies[slot].call)
        end(slot, now: now)
        releaseIfDone(c)
        return (replica, inService)
    }

    /// The call's client stopped waiting before any answer: it sends no more copies, and ends
    /// once its copies do.
    func abandon(_ call: Int32) {
        guard calls[Int(call)].inFlight == 0 else { return }
        calls[Int(call)].isAnswered = true
        releaseIfDone(Int(call))
    }

    private func withdrawAll(of c: Int) {
        for k in 0..<Int(calls[c].sent) {
            let slot = callCopies[c * hedging.copies + k]
            if copies[Int(slot)].isLive { pending.append(.withdraw(copy: slot, tag: copies[Int(slot)].tag)) }
        }
    }

    /// The copy's work ends now: its busy time is counted and its slot freed.
    private func end(_ copy: Int, now: Int64) {
        let c = Int(copies[copy].call)
        if copies[copy].serviceStart >= 0 {
            work += now - copies[copy].serviceStart
            calls[c].work += now - copies[copy].serviceStart
        }
        copies[copy].isLive = false
        freeCopies.append(Int32(copy))
        calls[c].inFlight -= 1
    }

    private func releaseIfDone(_ c: Int) {
        if calls[c].isAnswered && calls[c].inFlight == 0 && calls[c].id != 0 {
            let seconds = Double(calls[c].work) / 1e9
            workSquares += seconds * seconds
            copySquares += Double(calls[c].sent) * Double(calls[c].sent)
            calls[c].id = 0  // no timer or pending send matches a released call
            freeCalls.append(Int32(c))
        }
    }

    /// The next pending action, first in first out.
    func popPending() -> Pending? {
        guard pendingStart < pending.count else {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            return nil
        }
        defer { pendingStart += 1 }
        return pending[pendingStart]
    }

    /// The run's tally.
    var tally: HedgeTally {
        HedgeTally(
            requests: requests, copies: copiesSent, withdrawn: withdrawn, work: Double(work) / 1e9,
            workSquares: workSquares, copySquares: copySquares, responseTimes: responses)
    }
}
