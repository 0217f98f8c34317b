import BackoffPolicies
import EventSimulation

/// The machine of ``RateLimit``, a server component: a token bucket that answers at once, a success when
/// an attempt finds a whole token (and takes it), a throttling error otherwise. Its bucket is shared
/// by every client, so its runs are event-ordered. With a share below 1, whether a client sends to
/// the limit is drawn from its stream at its first attempt, and kept.
struct RateLimitServer: ComponentMachine {
    /// It answers every attempt as it arrives: no events.
    static var eventKinds: UInt32 { 0 }

    /// Tokens a nanosecond, the bucket's size, its tokens at `refilled`.
    private let ratePerNanosecond: Double
    private let burst: Double
    private var tokens: Double
    private var refilled = VirtualTime.zero
    /// The share of the clients limited, and per client whether it is (1), is not (2) or has not
    /// sent yet (0).
    private let share: Double
    private var limited: [UInt8] = []

    init(_ limit: RateLimit, scenario: Scenario, seed: UInt64) {
        ratePerNanosecond = limit.rate / 1e9
        burst = Double(limit.burst)
        tokens = burst
        share = limit.share
    }

    /// Whether `client` sends to the limit: always at a share of 1, else drawn at its first attempt.
    private mutating func isLimited<Decisions: ServerDecisions>(_ client: Int, _ decisions: Decisions) -> Bool {
        guard share < 1 else { return true }
        if limited.count <= client { limited.append(contentsOf: repeatElement(0, count: client + 1 - limited.count)) }
        if limited[client] == 0 {
            var random = decisions.random(for: client)
            limited[client] = random.nextUniform() < share ? 1 : 2
        }
        return limited[client] == 1
    }

    mutating func receive<Decisions: ServerDecisions>(
        client: Int, attempt: Int64, isRetry: Bool, _ decisions: inout Decisions
    ) {
        var accepted = true
        if isLimited(client, decisions) {
            let now = decisions.now
            tokens = min(burst, tokens + Double(now.nanoseconds - refilled.nanoseconds) * ratePerNanosecond)
            refilled = now
            accepted = tokens >= 1
            if accepted { tokens -= 1 }
        }
        let outcome: AttemptOutcome = accepted ? .success : .failure
        decisions.counted(client, isRetry: isRetry, answeredAtOnce: outcome)
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
