import BackoffPolicies
import EventSimulation
import Stochastics

/// A client's attempts as the driver begins, dispatches, counts and times them out.
extension ScenarioRun {
    /// The client starts an attempt; it waits for a token of the client-side rate limiter, if there
    /// is one and it is on; then the shared limits let it go or not, and the server takes it.
    mutating func send(_ index: Int, to server: inout Server) {
        var random = ClientRandom(streams: streams, client: index)
        let (attempt, isRetry) = beginAttempt(&clients[index], at: now, using: &random)
        if !isRetry { gate.requestStarted(at: now.nanoseconds) }
        if waitsForToken(index, first: true) { return }
        dispatch(index, attempt: attempt, isRetry: isRetry, using: &random, to: &server)
    }

    /// Whether the attempt must wait for a token of the client-side rate limiter: if so, it looks
    /// again (a `dispatch` event, carrying its wait's generation) when the bucket should hold one
    /// or when the limiter wakes it, counted as one attempt that waited (`first`).
    @inline(__always)
    mutating func waitsForToken(_ index: Int, first: Bool) -> Bool {
        let wait = gate.tokenWait(client: index, at: now.nanoseconds)
        scheduleTokenWakes()
        guard wait > 0 else { return false }
        if first { counters.tokenWaits += 1 }
        if wait < .max {
            let generation = Int64(gate.tokenWaitGeneration(client: index))
            simulation.schedule(ScenarioEvent(kind: .dispatch, client: index, value: generation), after: wait)
        }
        return true
    }

    /// The waiters the limiter woke look again now.
    @inline(__always)
    mutating func scheduleTokenWakes() {
        while let (client, generation) = gate.popTokenWake() {
            simulation.schedule(ScenarioEvent(kind: .dispatch, client: client, value: Int64(generation)), after: 0)
        }
    }

    /// The attempt leaves the client: the shared limits let it go or not; the server takes it.
    @inline(__always)
    mutating func dispatch(
        _ index: Int, attempt: Int64, isRetry: Bool, using random: inout ClientRandom, to server: inout Server
    ) {
        guard gate.admitsAttempt(at: now.nanoseconds, using: &random) else {
            counters.localRejections += 1
            deliver(.rejectedLocally, to: index)
            return
        }
        gate.attemptSent(client: index, at: now.nanoseconds)
        slots.attemptReceived(index)
        server.receive(client: index, attempt: attempt, isRetry: isRetry, &self)
    }

    /// The client starts an attempt at `time`; at a request's first attempt, whether it meets a
    /// permanent error is drawn from the client's stream.
    @inline(__always)
    mutating func beginAttempt<Random: UniformSource>(
        _ client: inout SimulatedClient, at time: VirtualTime, using random: inout Random
    ) -> (id: Int64, isRetry: Bool) {
        let fraction = scenario.permanentFraction
        let attempt = client.beginAttempt(at: time, policy: policy) {
            fraction > 0 && random.nextUniform() < fraction
        }
        if !attempt.isRetry { counters.uniqueRequests += 1 }
        return attempt
    }

    /// An attempt reached the server at `time`: counted, with its outcome when answered at once.
    @inline(__always)
    mutating func countAttempt(isRetry: Bool, at time: VirtualTime, answeredAtOnce outcome: AttemptOutcome?) {
        counters.attempts += 1
        if let outcome {
            timeline.recordAttempt(at: time, isRetry: isRetry, answeredAtOnce: outcome)
        } else {
            timeline.recordAttempt(at: time, isRetry: isRetry)
        }
    }

    /// Schedules the client's timeout for its attempt `attempt`, when the scenario has one: fixed
    /// (in a lane of its own, where timeouts arrive in order), or drawn from the client's stream
    /// for an exponential patience (in the heap; at most the horizon).
    mutating func scheduleTimeout(_ index: Int, attempt: Int64) {
        if let mean = scenario.patienceNanoseconds {
            let draw = streams.exponential(index, mean: mean)
            let delay = draw < Self.longestPatience ? max(1, Int64(draw.rounded())) : Int64(Self.longestPatience)
            simulation.schedule(ScenarioEvent(kind: .timeout, client: index, value: attempt), after: delay, priority: 1)
            return
        }
        guard let timeout = scenario.timeoutNanoseconds else { return }
        simulation.schedule(
            ScenarioEvent(kind: .timeout, client: index, value: attempt), after: timeout, priority: 1,
            lane: Self.timeoutLane)
    }

    /// The longest patience drawn, in nanoseconds: half virtual time's horizon, so that now plus
    /// it stays a time (a run reaching past the horizon stops there with an error).
    static var longestPatience: Double { Double(VirtualTime.horizon.nanoseconds / 2) }

    /// The client stops waiting for its attempt `attempt`, unless it was answered already.
    mutating func timeOut(_ index: Int, attempt: Int64) {
        guard clients[index].isAwaiting(attempt) else { return }
        counters.timeouts += 1
        timeline.recordTimeout(at: now)
        deliver(.timeout, to: index)
    }

    mutating func schedule(_ kind: ScenarioEvent.Kind, _ client: Int, value: Int64 = 0, after delay: Int64) {
        simulation.schedule(ScenarioEvent(kind: kind, client: client, value: value), after: delay)
    }
}
