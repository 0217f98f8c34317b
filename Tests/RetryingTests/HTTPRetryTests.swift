import BackoffPolicies
import Foundation
import Retrying
import RetryingHTTP
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Retrier.data(for:)` against a real HTTP server on 127.0.0.1: statuses, Retry-After in both
/// forms, timeouts and a refused connection, each attempt reported.
@Suite(.serialized) struct HTTPRetryTests {
    /// 10 ms, 20 ms, ... without jitter: the schedule is exact, so only real time's delays vary.
    private let retrier = Retrier(
        policy: try! BackoffPolicy(base: .milliseconds(10), jitter: .disabled, budget: .maxAttempts(4)),
        clock: ContinuousClock())

    private func send(
        _ server: LoopbackHTTPServer, retrier: Retrier<ContinuousClock>? = nil, timeout: Duration = .seconds(10)
    ) async -> (result: Result<(Data, HTTPURLResponse), any Error>, attempts: [HTTPAttempt]) {
        let request = URLRequest(url: server.url)
        var random = SystemUniforms()
        var attempts: [HTTPAttempt] = []
        do {
            let value = try await (retrier ?? self.retrier).data(for: request, timeout: timeout, using: &random) {
                attempts.append($0)
            }
            return (.success(value), attempts)
        } catch {
            return (.failure(error), attempts)
        }
    }

    @Test func transientStatusesAreRetriedUntilASuccess() async throws {
        let server = try LoopbackHTTPServer([.init(status: 500), .init(status: 502), .init(status: 200, body: "ok")])
        defer { server.stop() }
        let (result, attempts) = await send(server)
        let (data, response) = try result.get()
        #expect(String(decoding: data, as: UTF8.self) == "ok" && response.statusCode == 200)
        #expect(attempts.map(\.status) == [500, 502, 200] && attempts.map(\.number) == [1, 2, 3])
        // The waits between attempts are the policy's 10 and 20 ms, at least.
        #expect(attempts[1].start - attempts[0].end >= .milliseconds(10))
        #expect(attempts[2].start - attempts[1].end >= .milliseconds(20))
        #expect(server.requests == 3)
    }

    @Test func aClientErrorIsNotRetried() async throws {
        let server = try LoopbackHTTPServer([.init(status: 404), .init(status: 200)])
        defer { server.stop() }
        let (result, attempts) = await send(server)
        #expect(throws: RetryError.self) { try result.get() }
        if case .failure(let error as RetryError) = result {
            #expect(error.lastError as? HTTPErrorResponse == HTTPErrorResponse(status: 404))
            #expect(error.attempts == 1)
        }
        #expect(attempts.map(\.status) == [404] && server.requests == 1)
    }

    /// Retry-After in seconds is waited (1 s, against the policy's 10 ms); as an HTTP date, until
    /// that date (a second ahead, at whole seconds: up to 1 s).
    @Test func retryAfterIsHonouredInBothForms() async throws {
        let date = Date(timeIntervalSinceNow: 2)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let server = try LoopbackHTTPServer([
            .init(status: 503, headers: [("Retry-After", "1")]),
            .init(status: 429, headers: [("Retry-After", formatter.string(from: date))]),
            .init(status: 200),
        ])
        defer { server.stop() }
        let (result, attempts) = await send(server)
        #expect(try result.get().1.statusCode == 200)
        #expect(attempts.map(\.status) == [503, 429, 200])
        let first = attempts[1].start - attempts[0].end
        #expect(first >= .seconds(1) && first < .seconds(2), "waited \(first) for Retry-After: 1")
        // The date is 2 s ahead of the test's start, 1 s or more of which the first wait took.
        let second = attempts[2].start - attempts[1].end
        #expect(second < .milliseconds(2_100), "waited \(second) for a date 2 s after the start")
        // Ignored, the policy's own 10 and 20 ms are waited.
        let ignoring = Retrier(policy: retrier.policy, clock: ContinuousClock(), retryAfterHandling: .ignore)
        let again = try LoopbackHTTPServer([.init(status: 503, headers: [("Retry-After", "30")]), .init(status: 200)])
        defer { again.stop() }
        let quick = await send(again, retrier: ignoring)
        #expect(quick.attempts.map(\.status) == [503, 200])
        #expect(quick.attempts[1].start - quick.attempts[0].end < .seconds(5))
    }

    /// A response slower than the request's timeout is a timeout, retried; the attempts carry no
    /// status. The server answers the abandoned requests later; the test waits for nothing.
    @Test func timeoutsAreTransient() async throws {
        let slow = LoopbackHTTPServer.Response(status: 200, delay: .seconds(1))
        let server = try LoopbackHTTPServer([slow, .init(status: 200, body: "late but fine")])
        defer { server.stop() }
        let (result, attempts) = await send(server, timeout: .milliseconds(300))
        #expect(attempts.count == 2 && attempts[0].status == nil && attempts[0].failure != nil)
        // Ended by the 300 ms timeout (no status: the server's answer after 1 s never came), and not
        // before it, as a request's own timeoutInterval of 0.3 s does on Linux.
        let first = attempts[0].end - attempts[0].start
        #expect(first >= .milliseconds(300), "the first attempt took \(first)")
        #expect(String(decoding: try result.get().0, as: UTF8.self) == "late but fine")
    }

    /// Nothing listens on the port: every attempt is refused, each retried, then the policy stops.
    @Test func aRefusedConnectionIsTransient() async throws {
        let closed = try LoopbackHTTPServer([])
        closed.stop()
        let (result, attempts) = await send(closed)
        #expect(attempts.count == 4 && attempts.allSatisfy { $0.status == nil })
        if case .failure(let error as RetryError) = result {
            #expect((error.lastError as? URLError)?.code == .cannotConnectToHost, "\(error.lastError)")
            #expect(error.attempts == 4)
        } else {
            Issue.record("expected a RetryError, got \(result)")
        }
    }

    /// The article's example, as written, against the loopback server: a 503, then the orders.
    @Test func theArticlesExampleFetches() async throws {
        let server = try LoopbackHTTPServer([.init(status: 503), .init(status: 200, body: "[]")])
        defer { server.stop() }
        let orders = try await fetchOrders(from: server.url)
        #expect(String(decoding: orders, as: UTF8.self) == "[]" && server.requests == 2)
    }

    @Test func theClassifierFollowsItsDocumentation() {
        #expect(HTTPRetryClassifier.classify(HTTPErrorResponse(status: 429)) == .transient)
        #expect(HTTPRetryClassifier.classify(HTTPErrorResponse(status: 429, retryAfter: "3")) == .retryAfterHeader("3"))
        #expect(HTTPRetryClassifier.classify(HTTPErrorResponse(status: 503, retryAfter: "x")) == .retryAfterHeader("x"))
        #expect(HTTPRetryClassifier.classify(HTTPErrorResponse(status: 500, retryAfter: "3")) == .transient)
        #expect(HTTPRetryClassifier.classify(HTTPErrorResponse(status: 408)) == .transient)
        #expect(HTTPRetryClassifier.classify(HTTPErrorResponse(status: 401)) == .permanent)
        #expect(HTTPRetryClassifier.classify(URLError(.timedOut)) == .transient)
        #expect(HTTPRetryClassifier.classify(URLError(.unsupportedURL)) == .permanent)
        #expect(HTTPRetryClassifier.classify(URLError(.cancelled)) == .permanent)
    }
}

/// "Retrying from an app", Over HTTP with URLSession (the article's lines, as written).
func fetchOrders(from url: URL) async throws -> Data {
    let retrier = Retrier(preset: .awsSDKStandard)
    var random = SystemUniforms()
    let request = URLRequest(url: url)
    let (data, _) = try await retrier.data(for: request, timeout: .seconds(2), using: &random) { attempt in
        print("attempt \(attempt.number): \(attempt.status.map(String.init) ?? attempt.failure ?? "?")")
    }
    return data
}
