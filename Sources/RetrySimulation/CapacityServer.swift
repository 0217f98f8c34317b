import BackoffPolicies
import EventSimulation
import Foundation

/// Workers serving a FIFO queue (see ``CapacityModel``): an attempt that finds a worker free is
/// served at once, one that finds the queue full is rejected at once, and the others wait. Service
/// times come from the client's stream; they are divided by the capacity left when they start (the
/// degradation window's fraction, or the capacity profile's factor). A client that stops waiting (its timeout, handled by the driver) does not
/// take the work back: the worker still does it (wasted work).
struct CapacityServer: SimulatedServer {
    /// The server's events.
    enum Event: UInt32 {
        /// A worker finishes the attempt numbered by the event's value.
        case serviceDone
    }

    let model: CapacityModel
    /// The service time in nanoseconds: fixed, the exponential's mean, or the lognormal's (mu, sigma)
    /// of log-nanoseconds; computed once.
    private let service: (fixed: Double, exponentialMean: Double, lognormal: (mu: Double, sigma: Double))
    private let rejectionRetryAfter: Nanoseconds?
    var busyWorkers = 0
    var queue = RingBuffer<(client: Int32, attempt: Int64)>()

    init(_ model: ServerModel) {
        guard case .capacity(let capacity) = model else { preconditionFailure("\(model) is not the capacity model") }
        self.model = capacity
        switch capacity.serviceTime {
        case .deterministic(let t): service = (t.nanoseconds, 0, (0, 0))
        case .exponential(let mean): service = (0, mean.nanoseconds, (0, 0))
        case .lognormal(let mean, let sd):
            let (m, s) = (mean.nanoseconds, sd.nanoseconds)
            let variance = log(1 + s * s / (m * m))
            service = (0, 0, (log(m) - variance / 2, variance.squareRoot()))
        }
        rejectionRetryAfter = capacity.rejectionRetryAfter?.wholeNanoseconds
    }

    mutating func receive<Gate: RetryGate>(
        client index: Int, attempt: Int64, isRetry: Bool, in run: inout ScenarioRun<Self, Gate>
    ) {
        let now = run.now
        run.countAttempt(isRetry: isRetry, at: now)
        if busyWorkers < model.workers {
            startService(client: Int32(index), attempt: attempt, in: &run)
        } else if queue.count < model.queueLimit {
            queue.append((Int32(index), attempt))
            run.counters.peakQueue = max(run.counters.peakQueue, queue.count)
            run.timeline.recordQueueLength(at: now, queue.count)
        } else {
            run.counters.rejected += 1
            run.timeline.recordRejection(at: now)
            run.timeline.recordAnswer(at: now, .failure)
            run.deliver(.failure(serverDelay: rejectionRetryAfter), to: index)
            return
        }
        run.scheduleTimeout(index, attempt: attempt)
    }

    mutating func handle<Gate: RetryGate>(_ event: ScenarioEvent, number: UInt32, in run: inout ScenarioRun<Self, Gate>)
    {
        let (index, attempt) = (event.client, Int64(event.value))
        let now = run.now
        busyWorkers -= 1
        if run.clients[index].isAwaiting(attempt) {
            let permanent = run.clients[index].isPermanent
            run.timeline.recordAnswer(at: now, permanent ? .failure : .success)
            run.deliver(permanent ? .permanentError : .success, to: index)
        } else {
            run.counters.wastedWork += 1
        }
        if let next = queue.popFirst() {
            run.timeline.recordQueueLength(at: now, queue.count)
            startService(client: next.client, attempt: next.attempt, in: &run)
        }
    }

    private mutating func startService<Gate: RetryGate>(
        client: Int32, attempt: Int64, in run: inout ScenarioRun<Self, Gate>
    ) {
        busyWorkers += 1
        var duration: Double
        switch model.serviceTime {
        case .deterministic: duration = service.fixed
        case .exponential: duration = run.streams.exponential(Int(client), mean: service.exponentialMean)
        case .lognormal:
            duration = run.streams.lognormal(Int(client), mu: service.lognormal.mu, sigma: service.lognormal.sigma)
        }
        if let window = model.degradation, run.now >= window.start, run.now < window.end {
            duration /= window.fraction
        } else if let profile = model.capacityProfile {
            duration /= profile.value(at: run.now)
        }
        // At most the horizon (a capacity factor of 1e-300 makes a time of 10^300 ns): the run then
        // stops at the horizon with an error instead of trapping in the conversion.
        let bounded = duration < Self.longestService ? duration : Self.longestService
        run.schedule(
            .server(Event.serviceDone.rawValue), Int(client), value: attempt, after: max(1, Int64(bounded + 0.5)))
    }

    /// The longest service time, in nanoseconds: virtual time's horizon.
    private static var longestService: Double { Double(VirtualTime.horizon.nanoseconds) }
}
