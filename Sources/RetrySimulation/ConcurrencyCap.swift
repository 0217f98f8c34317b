/// A layer behaviour: the layer holds at most `limit` calls in flight (`--layer concurrency=N`,
/// a bulkhead, as Envoy's `max_requests` circuit breaker or a server's worker pool is). A request
/// that finds the layer full is refused at once, as a failure its caller may retry; a slot frees
/// when a call ends, whatever its answer.
///
/// A value with one input each way: a call opens (``admits`` then ``opened()``) and a call ends
/// (``closed()``). The stack keeps one per layer; a layer without a cap has one that never refuses.
struct ConcurrencyCap {
    /// The most calls in flight at once (`Int.max`: no cap).
    let limit: Int
    /// The calls in flight now.
    private(set) var inFlight = 0

    /// A cap of `limit` calls; `nil` for none.
    init(limit: Int?) {
        precondition(limit.map { $0 >= 1 } ?? true, "a concurrency cap holds at least 1 call")
        self.limit = limit ?? .max
    }

    /// Whether a call may open now.
    var admits: Bool { inFlight < limit }

    /// A call opened (the cap admitted it).
    mutating func opened() {
        precondition(admits, "a call opened past the concurrency cap")
        inFlight += 1
    }

    /// A call that opened has ended.
    mutating func closed() {
        precondition(inFlight > 0, "a call closed that never opened")
        inFlight -= 1
    }
}
