import EventSimulation
import Stochastics

/// One shared item under optimistic concurrency (AWS Architecture Blog, 2015; see ``ServerModel``):
/// an attempt reads the item's version, then writes with it, each a round trip of two network
/// hops |N(mean, sd²)| drawn from the client's stream; the write succeeds only if no other write
/// succeeded since the read.
///
/// Only the write needs an event. When an attempt leaves, its read's arrival and its write's are
/// both known (three hops, drawn then, in the order the client meets them); the write looks up
/// what the read would have seen: it succeeds when the last successful write came no later than
/// its read's arrival. A write at the very instant of a read is seen by that read (with a read
/// event, the heap's order of the two decided). The hops back to the client are drawn when the
/// server acts, since nothing happens at the client between them.
struct ContentionServer: ModelledServer {
    /// The server's events.
    enum Event: UInt32, CaseIterable {
        /// A write arrives; its read arrived at the client's `readArrivals` entry.
        case write
    }

    static var eventKinds: UInt32 { UInt32(Event.allCases.count) }

    let hopMean: Double
    let hopStandardDeviation: Double
    /// GSL's ziggurat, read once: a hop is drawn in place from the client's stream, as
    /// `ClientStreams.normal` draws it (the same numbers), without a call and a table check per hop.
    let ziggurat = Ziggurat.gsl
    /// When the last successful write arrived, in nanoseconds (−1 before the first).
    var lastSuccess: Int64 = -1
    /// Per client, when the read of its attempt in flight arrived, in nanoseconds.
    var readArrivals: [Int64] = []

    init(_ model: ServerModel) {
        guard case .contention(let hop) = model else { preconditionFailure("\(model) is not the contention model") }
        hopMean = hop.mean.nanoseconds
        hopStandardDeviation = hop.standardDeviation.nanoseconds
    }

    mutating func receive<Decisions: DriverDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
    ) {
        send(client, at: decisions.now, &decisions)
    }

    mutating func handle<Decisions: DriverDecisions>(
        _ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions
    ) {
        let index = event.client
        let success = lastSuccess <= readArrivals[index]
        if success { lastSuccess = decisions.now.nanoseconds }
        // The write is the attempt, answered as it arrives.
        decisions.counted(index, isRetry: decisions.isRetrying(index), answeredAtOnce: success ? .success : .failure)
        // The client learns the outcome one hop later and acts then; its next attempt's read
        // leaves at once.
        let replied = decisions.now + hop(index, &decisions)
        let answer: ClientAnswer = success ? .success : .failure(serverDelay: nil)
        if let next = decisions.answer(index, answer, at: replied) { send(index, at: next, &decisions) }
    }

    /// The client's attempt leaves at `time`: its read arrives one hop later, and its write two
    /// hops after that (the read's reply, the write's request).
    private mutating func send<Decisions: DriverDecisions>(
        _ index: Int, at time: VirtualTime, _ decisions: inout Decisions
    ) {
        let stream = decisions.random(for: index).state
        let read = time + hop(&stream.pointee)
        let write = read + hop(&stream.pointee) + hop(&stream.pointee)
        if index >= readArrivals.count {
            readArrivals.append(contentsOf: repeatElement(0, count: index + 1 - readArrivals.count))
        }
        readArrivals[index] = read.nanoseconds
        decisions.schedule(Event.write.rawValue, for: index, value: 0, at: write)
    }

    /// The client's next network hop, drawn from its stream: |N(mean, sd²)| rounded to whole
    /// nanoseconds.
    @inline(__always)
    private func hop<Decisions: ServerDecisions>(_ index: Int, _ decisions: inout Decisions) -> Int64 {
        hop(&decisions.random(for: index).state.pointee)
    }

    /// A network hop drawn from `stream`, |N(mean, sd²)| rounded to whole nanoseconds.
    @inline(__always)
    private func hop(_ stream: inout Taus2) -> Int64 {
        let draw = hopMean + ziggurat.normal(sigma: hopStandardDeviation, using: &stream)
        // Half up, without the libm call of rounded(); at most the horizon (a mean and sd near it
        // may draw beyond), where the run stops with an error.
        let magnitude = abs(draw)
        return magnitude < Self.longestHop ? Int64(magnitude + 0.5) : VirtualTime.horizon.nanoseconds
    }

    /// The longest hop, in nanoseconds: virtual time's horizon.
    private static var longestHop: Double { Double(VirtualTime.horizon.nanoseconds) }
}
