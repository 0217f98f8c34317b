import BackoffPolicies
import EventSimulation

/// The server of ``ServerModel/rateLimit(_:)``: a token bucket that answers at once, a success when
/// an attempt finds a whole token (and takes it), a throttling error otherwise. Its bucket is shared
/// by every client, so its runs are event-ordered.
struct RateLimitServer: SimulatedServer {
    /// Tokens a nanosecond, the bucket's size, its tokens at `refilled`.
    private let ratePerNanosecond: Double
    private let burst: Double
    private var tokens: Double
    private var refilled = VirtualTime.zero

    init(_ model: ServerModel) {
        guard case .rateLimit(let limit) = model else { preconditionFailure("\(model) is not a rate limiter") }
        ratePerNanosecond = limit.rate / 1e9
        burst = Double(limit.burst)
        tokens = burst
    }

    mutating func receive<Decisions: ServerDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
    ) {
        let now = decisions.now
        tokens = min(burst, tokens + Double(now.nanoseconds - refilled.nanoseconds) * ratePerNanosecond)
        refilled = now
        let accepted = tokens >= 1
        if accepted { tokens -= 1 }
        let outcome: AttemptOutcome = accepted ? .success : .failure
        decisions.counted(isRetry: isRetry, answeredAtOnce: outcome)
        if decisions.isPermanent(client) {
            decisions.answer(client, .permanentError, recording: nil)
        } else {
            decisions.answer(client, accepted ? .success : .failure(serverDelay: nil), recording: nil)
        }
    }

    func handle<Decisions: ServerDecisions>(_ event: ScenarioEvent, number: UInt32, _ decisions: inout Decisions) {
        preconditionFailure("a rate limiter schedules no events")
    }
}
