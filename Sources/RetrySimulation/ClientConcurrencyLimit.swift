/// The clients' adaptive concurrency limit at work (`simulate --limit`, ``RetryLimits/concurrencyLimit``):
/// one limiter shared by every client, as one client library's limiter guards every call an
/// application makes. An attempt takes a place when it leaves and gives it back when its answer
/// reaches its client or its client times it out; an attempt that finds every place taken is
/// refused at once (the request fails fast, as behind an open breaker). Each attempt that ends is
/// a sample of its round trip: a timeout is a drop, as Netflix's gRPC client interceptor reads
/// DEADLINE_EXCEEDED, and any other answer a latency.
///
/// A reference, so that the gate that holds it (``LimitsInForce``, on every attempt's path) holds
/// one pointer: a run without a limit tests it for `nil` and nothing more.
final class ClientConcurrencyLimit {
    private var limiter: any AdaptiveLimiting
    private var inFlight = 0
    /// Per client: when its attempt in flight left (-1: none holds a place), and the attempts in
    /// flight just after it did, itself included.
    private var openedAt: [Int64]
    private var inFlightAtOpen: [Int32]

    /// The bytes it holds per client.
    static let bytesPerClient = MemoryLayout<Int64>.stride + MemoryLayout<Int32>.stride

    init(_ limit: ConcurrencyLimit, clients: Int, seed: UInt64) {
        limiter = limit.makeLimiter(seed: seed)
        openedAt = [Int64](repeating: -1, count: clients)
        inFlightAtOpen = [Int32](repeating: 0, count: clients)
    }

    /// The limit now.
    var limit: Int { limiter.limit }

    /// Room for clients numbered below `count`.
    func addClients(upTo count: Int) {
        guard openedAt.count < count else { return }
        openedAt.append(contentsOf: repeatElement(-1, count: count - openedAt.count))
        inFlightAtOpen.append(contentsOf: repeatElement(0, count: count - inFlightAtOpen.count))
    }

    /// Whether an attempt leaving at `time` finds a place.
    func admits(at time: Int64) -> Bool { limiter.admits(at: time) }

    /// `client`'s attempt left at `time`, holding a place.
    func attemptSent(client: Int, at time: Int64) {
        limiter.opened(at: time)
        inFlight += 1
        openedAt[client] = time
        inFlightAtOpen[client] = Int32(clamping: inFlight)
    }

    /// `client`'s attempt ended at `time` with `answer`: its place is free, and its round trip a
    /// sample (a timeout a drop). An answer to an attempt that held no place (refused, or another
    /// copy's) changes nothing.
    func attemptEnded(client: Int, _ answer: ClientAnswer, at time: Int64) {
        guard client < openedAt.count, openedAt[client] >= 0 else { return }
        let ending: LayerCallEnding =
            switch answer {
            case .success: .succeeded
            case .timeout, .deadlineExceeded: .cancelled
            case .failure, .permanentError, .rejectedLocally: .failed
            }
        inFlight -= 1
        limiter.closed(
            at: time, LayerCall(openedAt: openedAt[client], inFlightAtOpen: Int(inFlightAtOpen[client])), ending)
        openedAt[client] = -1
    }
}
