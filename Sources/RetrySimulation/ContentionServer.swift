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
struct ContentionServer: ModelledServer {
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

    func receive<Decisions: ServerDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
    ) {
        let delay = hop(client, &decisions)
        decisions.schedule(Event.read.rawValue, for: client, value: 0, after: delay)
    }

    mutating func handle<Decisions: ServerDecisions>(
        _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions
    ) {
        let index = event.client
        switch Event(rawValue: number)! {
        case .read:
            // The reply's hop and the write's hop.
            let replyHop = hop(index, &decisions)
            let (hops, overflow) = replyHop.addingReportingOverflow(hop(index, &decisions))  // two hops at the horizon
            decisions.schedule(Event.write.rawValue, for: index, value: version, after: overflow ? .max : hops)
        case .write:
            let success = event.value == Int32(truncatingIfNeeded: version)
            if success { version += 1 }
            // The write is the attempt, answered as it arrives.
            decisions.counted(isRetry: decisions.isRetrying(index), answeredAtOnce: success ? .success : .failure)
            // The client learns the outcome one hop later and acts then; its next attempt's read
            // leaves at once, one hop from the server.
            let replied = decisions.now + hop(index, &decisions)
            let answer: ClientAnswer = success ? .success : .failure(serverDelay: nil)
            if let next = decisions.answer(index, answer, at: replied) {
                let arrival = next + hop(index, &decisions)
                decisions.schedule(Event.read.rawValue, for: index, value: 0, at: arrival)
            }
        }
    }

    /// A network hop of the client's message, |N(mean, sd²)| rounded to whole nanoseconds.
    private func hop<Decisions: ServerDecisions>(_ index: Int, _ decisions: inout Decisions) -> Int64 {
        let draw = decisions.normal(for: index, mean: hopMean, standardDeviation: hopStandardDeviation)
        // Half up, without the libm call of rounded(); at most the horizon (a mean and sd near it
        // may draw beyond), where the run stops with an error.
        let magnitude = abs(draw)
        return magnitude < Self.longestHop ? Int64(magnitude + 0.5) : VirtualTime.horizon.nanoseconds
    }

    /// The longest hop, in nanoseconds: virtual time's horizon.
    private static var longestHop: Double { Double(VirtualTime.horizon.nanoseconds) }
}
