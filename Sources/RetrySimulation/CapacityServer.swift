import BackoffPolicies
import EventSimulation
import Foundation

/// Workers serving a queue (see ``CapacityModel``): an attempt that finds a worker free is served
/// at once, one that finds the queue full is rejected at once, and the others wait, to be taken in
/// the order of the model's ``QueueDiscipline`` (``WaitingQueue``), or shed by it. Service
/// times come from the client's stream; they are divided by the capacity left when they start (the
/// degradation window's fraction, or the capacity profile's factor). A client that stops waiting
/// (its timeout, handled by the driver) does not take the work back: the worker still does it
/// (wasted work), unless the model ``CapacityModel/dropsExpired``: a worker then drops a queued
/// attempt its caller no longer waits for. A hedge's cancelled copy is taken back
/// (``withdraw(client:attempt:inService:_:)``).
struct CapacityServer: WithdrawableServer {
    /// The server's events.
    enum Event: UInt32, CaseIterable {
        /// A worker finishes the attempt numbered by the event's value.
        case serviceDone
        /// A fail-fast host's failure of the attempt numbered by the event's value is due.
        case failedFast
    }

    static var eventKinds: UInt32 { UInt32(Event.allCases.count) }

    let model: CapacityModel
    /// A faulty host's behaviour (``HostFault``) in plain numbers, which the hot path reads: a
    /// fail-fast host's latency (-1: it serves), a failing host's probability (0: it answers as
    /// served), a down host's window [from, until) (empty: never down), and whether any of them
    /// decides as an attempt arrives. A slow host's fault is its service time.
    private let failFastLatency: Int64, failingProbability: Double
    private let downFrom: Int64, downUntil: Int64
    private let decidesOnArrival: Bool
    /// The service time: the model's, or a slow host's own.
    private let serviceTime: ServiceTime
    /// The service time in nanoseconds: fixed, the exponential's mean, or the lognormal's (mu, sigma)
    /// of log-nanoseconds; computed once.
    private let service: (fixed: Double, exponentialMean: Double, lognormal: (mu: Double, sigma: Double))
    private let rejectionRetryAfter: Nanoseconds?
    /// A mixture's components, each with the cumulative weight up to it (empty for another time).
    private let mixture: [(cumulative: Double, time: ServiceTime)]
    var busyWorkers = 0
    var queue: WaitingQueue
    /// Queue entries whose work was withdrawn: they no longer count, and are dropped when reached.
    var withdrawnQueued = 0

    init(_ model: ServerModel) { self.init(model, fault: nil) }

    /// A host of the model's replica set, with `fault` if it is one of the faulty hosts.
    init(_ model: ServerModel, fault: HostFault?) {
        guard case .capacity(let capacity) = model else { preconditionFailure("\(model) is not the capacity model") }
        self.model = capacity
        var (latency, probability, window, time) = (
            Int64(-1), 0.0, (from: Int64(0), until: Int64(0)), capacity.serviceTime
        )
        switch fault {
        case .failFast(let after)?: latency = max(1, after.wholeNanoseconds)
        case .failing(let p)?: probability = p
        case .slow(let own)?: time = own
        case .down(let start, let end)?: window = (start.nanoseconds, end.nanoseconds)
        case nil: break
        }
        (failFastLatency, failingProbability, downFrom, downUntil) = (latency, probability, window.from, window.until)
        serviceTime = time
        decidesOnArrival = latency >= 0 || window.until > window.from
        queue = WaitingQueue(capacity.queueDiscipline)
        switch serviceTime {
        case .deterministic(let t): service = (t.nanoseconds, 0, (0, 0))
        case .exponential(let mean): service = (0, mean.nanoseconds, (0, 0))
        case .lognormal(let mean, let sd):
            let (m, s) = (mean.nanoseconds, sd.nanoseconds)
            let variance = log(1 + s * s / (m * m))
            service = (0, 0, (log(m) - variance / 2, variance.squareRoot()))
        case .mixture: service = (0, 0, (0, 0))
        }
        if case .mixture(let parts) = serviceTime {
            var total = 0.0
            mixture = parts.map { part in
                total += part.weight
                return (total, part.time)
            }
        } else {
            mixture = []
        }
        rejectionRetryAfter = capacity.rejectionRetryAfter?.wholeNanoseconds
    }

    /// An attempt leaves through an answer (served), a rejection (queue full, or shed by the
    /// discipline), wasted work (served after its client stopped waiting) or a drop (an expired
    /// one, with `dropsExpired`, or one shed after its client stopped waiting).
    static var releasesEveryAttempt: Bool { true }

    mutating func receive<Decisions: ServerDecisions>(
        client index: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
    ) {
        decisions.counted(index, isRetry: isRetry, answeredAtOnce: nil)
        if decidesOnArrival, failsWithoutWork(client: index, attempt: attempt, &decisions) { return }
        if busyWorkers < model.workers {
            startService(client: Int32(index), attempt: attempt, &decisions)
        } else if queue.count - withdrawnQueued < model.queueLimit {
            queue.append(
                client: Int32(index), attempt: attempt, at: decisions.now.nanoseconds,
                wasEmpty: queue.count == withdrawnQueued)
            decisions.queued(length: queue.count - withdrawnQueued)
        } else {
            decisions.reject(index, retryAfter: rejectionRetryAfter)
            return
        }
        decisions.armTimeout(index, attempt: attempt)
    }

    mutating func handle<Decisions: ServerDecisions>(
        _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions
    ) {
        let (index, attempt) = (event.client, Int64(event.value))
        guard number == Event.serviceDone.rawValue else { return failedFast(index, attempt: attempt, &decisions) }
        busyWorkers -= 1
        if decisions.isAwaiting(index, attempt: attempt) {
            let permanent = decisions.isPermanent(index)
            // One answer, success unless permanent or a failing host's draw says failure.
            let fails = !permanent && failingProbability > 0 && fails(index, failingProbability, &decisions)
            decisions.answer(
                index, permanent ? .permanentError : fails ? .failure(serverDelay: nil) : .success,
                recording: permanent || fails ? .failure : .success)
        } else {
            decisions.wasted(index, attempt: attempt)
        }
        startNextQueued(&decisions)
    }

    /// A fail-fast host's failure is due: to its caller, or dropped when nobody waits for it.
    @inline(never)
    private func failedFast<Decisions: ServerDecisions>(_ index: Int, attempt: Int64, _ decisions: inout Decisions) {
        if decisions.isAwaiting(index, attempt: attempt) {
            decisions.answer(index, .failure(serverDelay: nil), recording: .failure)
        } else {
            decisions.dropped(index, attempt: attempt)
        }
    }

    mutating func withdraw<Decisions: ServerDecisions>(
        client: Int, attempt: Int64, inService: Bool, _ decisions: inout Decisions
    ) {
        if failFastLatency >= 0 { return }  // it holds no worker and no place in the queue
        if inService {
            busyWorkers -= 1
            startNextQueued(&decisions)
        } else {
            withdrawnQueued += 1
            decisions.queued(length: queue.count - withdrawnQueued)
        }
    }

    /// Whether a failing host's answer to `client` is a failure: one uniform of the client's stream.
    @inline(never)
    private func fails<Decisions: ServerDecisions>(_ client: Int, _ probability: Double, _ decisions: inout Decisions)
        -> Bool
    {
        var random = decisions.random(for: client)
        return random.nextUniform() < probability
    }

    /// A fail-fast host's attempt, due to fail after its latency (at least 1 ns, as a service is),
    /// or one that reaches a host that is down, refused at once: `true` when the fault took it.
    @inline(never)
    private mutating func failsWithoutWork<Decisions: ServerDecisions>(
        client index: Int, attempt: Int64, _ decisions: inout Decisions
    ) -> Bool {
        if failFastLatency >= 0 {
            decisions.schedule(Event.failedFast.rawValue, for: index, value: attempt, after: failFastLatency)
            decisions.armTimeout(index, attempt: attempt)
            return true
        }
        let now = decisions.now.nanoseconds
        guard now >= downFrom && now < downUntil else { return false }
        decisions.reject(index, retryAfter: nil)
        return true
    }

    /// A worker is free: it takes the next queued attempt still wanted, as the discipline orders
    /// them, and answers those the discipline sheds with a failure on the way.
    @inline(__always)
    private mutating func startNextQueued<Decisions: ServerDecisions>(_ decisions: inout Decisions) {
        while let (next, sheds) = queue.next(at: decisions.now.nanoseconds) {
            let client = Int(next.client)
            if decisions.isWithdrawn(client, attempt: next.attempt) {
                withdrawnQueued -= 1  // it stopped counting when withdrawn
                continue
            }
            decisions.queued(length: queue.count - withdrawnQueued)
            // Work its caller cancelled (deadline propagation) leaves the queue unserved.
            guard !decisions.takeCancellation(client, attempt: next.attempt) else { continue }
            // A server that checks the deadline drops work nobody waits for any more; so does one
            // that sheds it, as nobody waits for its failure either.
            if (model.dropsExpired || sheds) && !decisions.isAwaiting(client, attempt: next.attempt) {
                decisions.dropped(client, attempt: next.attempt)
                continue
            }
            if sheds {
                decisions.reject(client, retryAfter: rejectionRetryAfter)
                continue
            }
            startService(client: next.client, attempt: next.attempt, &decisions)
            break
        }
    }

    private mutating func startService<Decisions: ServerDecisions>(
        client: Int32, attempt: Int64, _ decisions: inout Decisions
    ) {
        busyWorkers += 1
        decisions.serviceStarted(Int(client), attempt: attempt)
        let now = decisions.now
        var duration: Double
        switch serviceTime {
        case .deterministic: duration = service.fixed
        case .exponential: duration = decisions.exponential(for: Int(client), mean: service.exponentialMean)
        case .lognormal:
            duration = decisions.lognormal(for: Int(client), mu: service.lognormal.mu, sigma: service.lognormal.sigma)
        case .mixture: duration = mixtureDraw(for: Int(client), &decisions)
        }
        if let window = model.degradation, now >= window.start, now < window.end {
            duration /= window.fraction
        } else if let profile = model.capacityProfile {
            duration /= profile.value(at: now)
        }
        // At most the horizon (a capacity factor of 1e-300 makes a time of 10^300 ns): the run then
        // stops at the horizon with an error instead of trapping in the conversion.
        let bounded = duration < Self.longestService ? duration : Self.longestService
        decisions.schedule(
            Event.serviceDone.rawValue, for: Int(client), value: attempt, after: max(1, Int64(bounded + 0.5)))
    }

    /// A mixture's draw: one uniform of the client's stream picks the component (the last one if
    /// rounding leaves the weights' sum below it), then the component's own draw.
    private func mixtureDraw<Decisions: ServerDecisions>(for client: Int, _ decisions: inout Decisions) -> Double {
        var random = decisions.random(for: client)
        let u = random.nextUniform()
        let time = (mixture.first { u < $0.cumulative } ?? mixture[mixture.count - 1]).time
        switch time {
        case .deterministic(let t): return t.nanoseconds
        case .exponential(let mean): return decisions.exponential(for: client, mean: mean.nanoseconds)
        case .lognormal:
            let (mu, sigma) = time.logParameters
            return decisions.lognormal(for: client, mu: mu, sigma: sigma)
        case .mixture: preconditionFailure("a mixture's component is not a mixture (validated)")
        }
    }

    /// The longest service time, in nanoseconds: virtual time's horizon.
    private static var longestService: Double { Double(VirtualTime.horizon.nanoseconds) }
}
