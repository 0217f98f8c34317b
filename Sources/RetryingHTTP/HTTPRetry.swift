import BackoffPolicies
import Foundation
import Retrying

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response that ends an attempt as a failure: a status outside 200 to 399.
public struct HTTPErrorResponse: Error, Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    /// The response's `Retry-After` header, as sent.
    public let retryAfter: String?
    public let body: Data

    public init(status: Int, retryAfter: String? = nil, body: Data = Data()) {
        (self.status, self.retryAfter, self.body) = (status, retryAfter, body)
    }

    public var description: String {
        "HTTP \(status)" + (retryAfter.map { " (Retry-After: \($0))" } ?? "")
    }
}

/// One attempt of an HTTP request, as `Retrier.data(for:session:timeout:using:onAttempt:)`
/// reports it.
public struct HTTPAttempt: Sendable, Equatable {
    /// 1 for the first attempt.
    public let number: Int
    /// When the attempt started and ended on the retrier's clock, since the first one started.
    public let start: Duration
    public let end: Duration
    /// The response's status, or `nil` when none came (a timeout, a refused connection).
    public let status: Int?
    /// What went wrong when no response came.
    public let failure: String?
}

/// How an HTTP attempt's failure is classified:
/// - 429 and 503 with a `Retry-After` header: `RetryClassification.retryAfterHeader(_:)` (seconds
///   or an HTTP date; the retrier's `retryAfterHandling` says what it does with it); without one,
///   transient;
/// - 408 and every other 5xx: transient; every other status from 400 up: permanent;
/// - no response: a timeout, a refused or lost connection, a host not found: transient; a URL the
///   session cannot send (malformed, an unsupported scheme) or a cancelled request: permanent.
public enum HTTPRetryClassifier {
    public static func classify(_ error: any Error) -> RetryClassification {
        if let response = error as? HTTPErrorResponse {
            switch response.status {
            case 429, 503: return response.retryAfter.map { .retryAfterHeader($0) } ?? .transient
            case 408, 500...599: return .transient
            default: return .permanent
            }
        }
        if let failure = error as? URLError {
            switch failure.code {
            case .timedOut, .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet, .cannotFindHost,
                .dnsLookupFailed, .badServerResponse, .zeroByteResource, .resourceUnavailable:
                return .transient
            default: return .permanent
            }
        }
        return .transient
    }
}

extension Retrier {
    /// Sends `request` through `session` until a response from 200 to 399 comes back or the policy
    /// stops (throwing `RetryError`, whose last error is an ``HTTPErrorResponse`` or a `URLError`).
    /// Each attempt is classified by ``HTTPRetryClassifier`` and reported to `onAttempt` when it
    /// ends.
    ///
    /// `timeout` ends an attempt that has no response after that long on the retrier's clock, as
    /// `URLError(.timedOut)` (the request is cancelled). Prefer it to the request's
    /// `timeoutInterval`, which FoundationNetworking on Linux truncates to whole seconds: 0.3 s
    /// times out at once, 1.5 s after 1 s.
    public func data(
        for request: URLRequest, session: URLSession = .shared, timeout: Duration? = nil,
        using random: inout some UniformSource, onAttempt: ((HTTPAttempt) -> Void)? = nil
    ) async throws -> (Data, HTTPURLResponse) {
        let clock = self.clock
        let origin = clock.now
        var number = 0
        return try await run(using: &random, classify: HTTPRetryClassifier.classify) {
            number += 1
            let start = origin.duration(to: clock.now)
            func report(_ status: Int?, _ failure: String?) {
                onAttempt?(
                    HTTPAttempt(
                        number: number, start: start, end: origin.duration(to: clock.now), status: status,
                        failure: failure))
            }
            let data: Data
            let response: URLResponse
            do {
                (data, response) = try await Self.send(request, session: session, timeout: timeout, clock: clock)
            } catch {
                report(nil, "\(error)")
                throw error
            }
            guard let http = response as? HTTPURLResponse else {
                report(nil, "not an HTTP response")
                throw URLError(.badServerResponse)
            }
            report(http.statusCode, nil)
            guard (200..<400).contains(http.statusCode) else {
                throw HTTPErrorResponse(
                    status: http.statusCode, retryAfter: http.value(forHTTPHeaderField: "Retry-After"), body: data)
            }
            return (data, http)
        }
    }

    /// One attempt: the session's answer, or `URLError(.timedOut)` once `timeout` has passed on
    /// `clock` (the request is then cancelled).
    private static func send(_ request: URLRequest, session: URLSession, timeout: Duration?, clock: C)
        async throws -> (Data, URLResponse)
    {
        guard let timeout else { return try await session.data(for: request) }
        return try await withThrowingTaskGroup(of: (Data, URLResponse).self) { group in
            group.addTask { try await session.data(for: request) }
            group.addTask {
                try await clock.sleep(until: clock.now.advanced(by: timeout), tolerance: nil)
                throw URLError(.timedOut)
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}
