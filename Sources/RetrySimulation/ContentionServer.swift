import EventSimulation
import Stochastics

/// One shared item under optimistic concurrency (AWS Architecture Blog, 2015; see ``ServerModel``):
/// an attempt reads the item's version, then writes with it, each a round trip of two network
/// hops |N(mean, sd²)| drawn from the client's stream; the write succeeds only if no other write
/// succeeded since the read.
///
/// Only the server's side needs events: the read's arrival, and the write's arrival carrying the
/// version read. The hops back to the client are drawn when the server acts, since nothing happens
/// at the client between them.
struct ContentionServer: SimulatedServer {
    /// The server's events.
    enum Event: UInt32 {
        /// A read arrives at the server.
        case read
        /// A write arrives, carrying the version read (in the event's value).
        case write
    }

    let hopMean: Double
    let hopStandardDeviation: Double
    /// Successful writes so far.
    var version: Int64 = 0

    init(_ model: ServerModel) {
        guard case .contention(let hop) = model else { preconditionFailure("\(model) is not the contention model") }
        hopMean = hop.mean.nanoseconds
        hopStandardDeviation = hop.standardDeviation.nanoseconds
    }

    func receive<Gate: RetryGate>(client: Int, attempt: Int64, isRetry: Bool, in run: inout ScenarioRun<Self, Gate>) {
        run.schedule(.server(Event.read.rawValue), client, after: hop(client, run.streams))
    }

    mutating func handle<Gate: RetryGate>(_ event: ScenarioEvent, number: UInt32, in run: inout ScenarioRun<Self, Gate>)
    {
        let index = event.client
        switch Event(rawValue: number)! {
        case .read:
            // The reply's hop and the write's hop.
            let replyHop = hop(index, run.streams)
            let (hops, overflow) = replyHop.addingReportingOverflow(hop(index, run.streams))  // two hops at the horizon
            run.schedule(.server(Event.write.rawValue), index, value: version, after: overflow ? .max : hops)
        case .write:
            let success = event.value == Int32(truncatingIfNeeded: version)
            if success { version += 1 }
            let now = run.now
            // The write is the attempt, answered as it arrives: one bucket lookup counts both.
            run.counters.attempts += 1
            run.timeline.recordAttempt(
                at: now, isRetry: run.clients[index].backoff.attempts > 1, answeredAtOnce: success ? .success : .failure
            )
            // The client learns the outcome one hop later and acts then; its next attempt's read
            // leaves at once, one hop from the server.
            let replied = now + hop(index, run.streams)
            var random = ClientRandom(streams: run.streams, client: index)
            let answer: ClientAnswer = success ? .success : .failure(serverDelay: nil)
            if let next = run.carryOut(answer, for: &run.clients[index], index, at: replied, using: &random) {
                _ = run.beginAttempt(&run.clients[index], at: next, using: &random)
                run.simulation.schedule(
                    ScenarioEvent(kind: .server(Event.read.rawValue), client: index), at: next + hop(index, run.streams)
                )
            }
        }
    }

    /// A network hop of the client's message, |N(mean, sd²)| rounded to whole nanoseconds.
    private func hop(_ index: Int, _ streams: ClientStreams) -> Int64 {
        let draw = streams.normal(index, mean: hopMean, standardDeviation: hopStandardDeviation)
        // Half up, without the libm call of rounded(); at most the horizon (a mean and sd near it
        // may draw beyond), where the run stops with an error.
        let magnitude = abs(draw)
        return magnitude < Self.longestHop ? Int64(magnitude + 0.5) : VirtualTime.horizon.nanoseconds
    }

    /// The longest hop, in nanoseconds: virtual time's horizon.
    private static var longestHop: Double { Double(VirtualTime.horizon.nanoseconds) }
}
