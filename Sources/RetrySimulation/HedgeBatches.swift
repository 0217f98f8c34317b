import Stochastics

/// The hedged requests in batches, for the standard errors of copies, work and response time per
/// request where the clients arrive over time (`HedgeTally`): copies and work as the requests are
/// released (their last copy ended), in a stream; response times from the tally's own list, in
/// the order the requests were answered, once the run is over.
struct HedgeBatches: Hashable, Sendable {
    var copies = StreamingBatchRatio()
    var work = StreamingBatchRatio()
    /// Whether each copy went to a faulty host (1 or 0), in the order copies are sent: a
    /// least-request balancer's next pick depends on what is in flight, so neighbours correlate
    /// (fed only where there are faulty hosts). In the order calls end, a fail-fast host's copies
    /// would all come first, and the batches would differ by that alone.
    var faultyShare = StreamingBatchRatio()

    /// A request's copies and work (seconds), once its last copy ended.
    @inline(__always)
    mutating func callReleased(copies count: Double, work seconds: Double) {
        copies.add(numerator: count)
        work.add(numerator: seconds)
    }

    /// Standard errors of copies, work (seconds) and the mean response (seconds) per request, and
    /// of the share of copies at faulty hosts (NaN where none is).
    struct Errors: Hashable, Sendable {
        let copies: Double, work: Double, response: Double
        /// `nil` without faulty hosts, or too few batches to say (never NaN, so errors compare equal).
        var faultyShare: Double? = nil
    }

    /// The standard errors, given the response times in the order they were answered; `nil`
    /// while copies, work or response has too few batches to say (under 64 requests).
    func standardErrors(responses: [Double]) -> Errors? {
        let errors = Errors(
            copies: copies.standardError, work: work.standardError,
            response: BatchRatio.standardErrorOfMean(responses),
            faultyShare: faultyShare.standardError.isNaN ? nil : faultyShare.standardError)
        return errors.copies.isNaN || errors.work.isNaN || errors.response.isNaN ? nil : errors
    }
}
