import BackoffPolicies
import Retrying
import Testing

/// The hedging example of the article "Retrying from an app", verbatim, against an API whose
/// first replica never answers in time: the second copy's answer comes back, and the first copy's
/// task is cancelled.
@Suite struct ArticleHedgingExampleTests {
    /// A profile service with one slow replica (copy 1 waits a minute unless cancelled).
    struct ProfileAPI: Sendable {
        let cancelled = Shared<[Int]>([])

        func profile(_ id: String, replica: Int) async throws -> String {
            if replica == 1 {
                do {
                    try await Task.sleep(for: .seconds(60))
                } catch {
                    cancelled.update { $0.append(replica) }
                    throw error
                }
            }
            return "\(id) from replica \(replica)"
        }
    }

    func classifyHTTP(_ error: any Error) -> RetryClassification {
        (error as? ServerError)?.status == 404 ? .permanent : .transient
    }

    @Test func aSlowCallIsHedged() async throws {
        let retrier = Retrier(policy: try BackoffPolicy(budget: .maxAttempts(1)))
        let api = ProfileAPI()
        let id = "user-7"
        let hedging = try Hedging(delay: .milliseconds(30), copies: 2)  // about the p95 of the call
        var random = SystemUniforms()
        let profile = try await retrier.hedge(hedging, using: &random, classify: classifyHTTP) { copy in
            try await api.profile(id, replica: copy)  // each copy starts new work
        }
        #expect(profile == "user-7 from replica 2")
        #expect(api.cancelled.value == [1])
    }
}
