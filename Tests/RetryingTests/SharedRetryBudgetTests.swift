import BackoffPolicies
import Retrying
import Synchronization
import Testing

@Suite struct SharedRetryBudgetTests {
    /// 200 concurrent retry loops share one gRPC token bucket: retries stop once failures drain it
    /// below half, every loop ends with a RetryError, and the bucket never leaves [0, max].
    @Test func manyConcurrentCallersShareOneBucketSafely() async throws {
        let budget = SharedRetryBudget(.tokenBucket(.grpcExample))
        let policy = try BackoffPolicy(schedule: .immediate, budget: .maxAttempts(5))
        let reasons = Shared<[StopReason]>([])
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    var random = SystemUniforms()
                    do {
                        _ = try await Retrier(policy: policy, budget: budget).run(using: &random) { () async throws -> Int in
                            throw Unavailable()
                        }
                    } catch let error as RetryError {
                        reasons.update { $0.append(error.reason) }
                    } catch {}
                }
            }
        }
        let all = reasons.value
        #expect(all.count == 200)
        #expect(all.contains(.budgetExhausted))
        guard case .tokenBucket(let bucket) = budget.current else { Issue.record("not a token bucket"); return }
        #expect(bucket.tokens >= 0 && bucket.tokens <= bucket.maxTokens && !bucket.allowsRetry)
    }
}

struct Unavailable: Error {}
