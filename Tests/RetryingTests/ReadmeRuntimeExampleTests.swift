import BackoffPolicies
import Retrying
import Synchronization
import Testing

/// What a client sees of an HTTP response.
struct HTTPResponse: Sendable {
    let status: Int
    let headers: [String: String]
    let body: String
}

struct HTTPStatusError: Error {
    let response: HTTPResponse
}

/// 429 and 503 are worth retrying, after the server's Retry-After when it sends one; other 5xx and
/// network errors after the backoff; 404, 401 and the rest of 4xx never.
func classify(_ error: any Error) -> RetryClassification {
    guard let failure = error as? HTTPStatusError else { return .transient }
    switch failure.response.status {
    case 429, 503:
        return failure.response.headers["Retry-After"].map { .retryAfterHeader($0) } ?? .transient
    case 500...599:
        return .transient
    default:
        return .permanent
    }
}

/// Fetches a body with retries: `send` must start a new request on every call.
func fetchBody<C: Clock>(
    with retrier: Retrier<C>, send: () async throws -> HTTPResponse
) async throws -> String where C.Duration == Duration {
    var random = SystemUniforms()
    return try await retrier.run(using: &random, classify: classify) {
        let response = try await send()
        guard response.status == 200 else { throw HTTPStatusError(response: response) }
        return response.body
    }
}

/// The README's example, verbatim above, against a scripted server on a virtual clock.
@Suite struct ReadmeRuntimeExampleTests {
    @Test func retriesA503AfterItsRetryAfterAndStopsAtA404() async throws {
        let policy = try BackoffPolicy(
            base: .milliseconds(100), cap: .seconds(5), jitter: .full, budget: .maxAttempts(5),
            maxElapsed: .seconds(20))
        let clock = VirtualClock()
        let retrier = Retrier(
            policy: policy, clock: clock, budget: SharedRetryBudget(.tokenBucket(.grpcExample), clock: clock))
        let responses = Shared([
            HTTPResponse(status: 503, headers: ["Retry-After": "2"], body: ""),
            HTTPResponse(status: 429, headers: [:], body: ""),
            HTTPResponse(status: 200, headers: [:], body: "hello"),
        ])
        let times = Shared<[Duration]>([])
        let result = await drive(clock) {
            try await fetchBody(with: retrier) {
                times.update { $0.append(clock.now.offset) }
                return responses.update { $0.removeFirst() }
            }
        }
        #expect(try result.get() == "hello")
        let attempts = times.value
        #expect(attempts.count == 3 && attempts[1] == .seconds(2), "the second attempt waits the 2 s Retry-After")
        #expect(attempts[2] - attempts[1] <= .milliseconds(200), "the third waits full jitter of at most 200 ms")

        let missing = await drive(clock) {
            try await fetchBody(with: retrier) { HTTPResponse(status: 404, headers: [:], body: "") }
        }
        guard case .failure(let error as RetryError) = missing else {
            Issue.record("expected a RetryError")
            return
        }
        #expect(error.reason == .permanentError && error.attempts == 1)
    }
}
