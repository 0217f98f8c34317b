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
                        _ = try await Retrier(policy: policy, budget: budget).run(using: &random) {
                            () async throws -> Int in
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
        guard case .tokenBucket(let bucket) = budget.current else {
            Issue.record("not a token bucket")
            return
        }
        #expect(bucket.tokens >= 0 && bucket.tokens <= bucket.maxTokens && !bucket.allowsRetry)
    }
}

extension SharedRetryBudgetTests {
    /// A ratio budget (half the requests of a 10 s window may retry, no reserve) shared by retriers
    /// on one VirtualClock, its time measured from its creation: requests count when they start.
    ///
    /// - t = 0: 10 requests succeed at once. They fill the window.
    /// - t = 20 s: they have left it. A failing request may retry only against itself: 0.5 x 1 < 1,
    ///   refused. (With every request timed from its own start, as before, all 11 would sit at t = 0
    ///   in one window: 0.5 x 11 = 5.5 retries allowed.)
    /// - t = 25 s: four concurrent requests start and fail once each; once all four have started
    ///   (a barrier in the operation) the window holds 5 requests: 0.5 x 5 = 2.5, so exactly two retry.
    @Test func aSharedRatioBudgetCountsRequestsWhenTheyStart() async throws {
        let clock = VirtualClock()
        let budget = SharedRetryBudget(
            .ratio(try RatioBudget(percentCanRetry: 0.5, minRetriesPerSecond: 0, window: .seconds(10))), clock: clock)
        let policy = try BackoffPolicy(schedule: .immediate, budget: .maxAttempts(2))
        let retrier = Retrier(policy: policy, clock: clock, budget: budget)
        var random = SystemUniforms()
        for _ in 0..<10 { _ = try await retrier.run(using: &random) { 1 } }

        clock.advance(by: .seconds(20))
        #expect(budget.elapsed == 20_000_000_000)
        do {
            _ = try await retrier.run(using: &random) { () async throws -> Int in throw Unavailable() }
            Issue.record("the retry should have been refused")
        } catch let error as RetryError {
            #expect(error.reason == .budgetExhausted)
        }

        clock.advance(by: .seconds(5))
        let started = Shared(0)
        let retries = Shared(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var random = SystemUniforms()
                    let attempts = Shared(0)
                    _ = try? await retrier.run(
                        using: &random,
                        onEvent: { event in
                            if case .willRetry = event { retries.update { $0 += 1 } }
                        }
                    ) { () async throws -> Int in
                        if attempts.update({
                            $0 += 1
                            return $0
                        }) == 1 {
                            started.update { $0 += 1 }
                            while started.value < 4 { await Task.yield() }
                            throw Unavailable()
                        }
                        return 1
                    }
                }
            }
        }
        #expect(retries.value == 2)
    }
}

struct Unavailable: Error {}
