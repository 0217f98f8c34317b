import BackoffPolicies
import Foundation
import Retrying
import Testing

/// A view model as an iOS app writes it: main-actor state mutated by the retried closure, with no
/// `Sendable` annotation and no hop. That this compiles under Swift 6 is half the test.
@MainActor
final class ViewModel {
    var calls = 0
    var status = "idle"
    let retrier: Retrier<VirtualClock>

    init(retrier: Retrier<VirtualClock>) { self.retrier = retrier }

    func load() async throws -> Int {
        var random = SystemUniforms()
        status = "loading"
        defer { status = "done" }
        return try await retrier.run(using: &random) {
            calls += 1
            if calls < 3 { throw ServerError(status: 503) }
            return calls * 10
        }
    }
}

/// A sequence of one element: the value of a task made once (a hot source: every subscription
/// awaits the same task, so a failed one fails again without new work).
struct TaskValue<Value: Sendable>: AsyncSequence {
    let task: Task<Value, any Error>

    struct AsyncIterator: AsyncIteratorProtocol {
        let task: Task<Value, any Error>
        var delivered = false

        mutating func next() async throws -> Value? {
            guard !delivered else { return nil }
            delivered = true
            return try await task.value
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(task: task) }
}

/// `run` on the caller's actor, the stream operator, outcomes as values, and breakers and throttles
/// in the runtime, all on a `VirtualClock`.
@Suite struct SwiftConcurrencyRetryTests {
    func ms(_ value: Int64) -> Duration { .milliseconds(value) }

    @MainActor
    @Test func aMainActorViewModelRetriesAClosureThatMutatesItsState() async throws {
        let clock = VirtualClock()
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(5))
        let model = ViewModel(retrier: Retrier(policy: policy, clock: clock))
        // The clock's driver runs off the main actor while the view model waits on it.
        let advancing = Task.detached {
            while !Task.isCancelled {
                if let deadline = clock.nextDeadline { clock.advance(to: deadline) }
                await Task.yield()
            }
        }
        defer { advancing.cancel() }
        let value = try await model.load()
        #expect(value == 30 && model.calls == 3 && model.status == "done")
        #expect(clock.now.offset == ms(300))
    }

    /// RxSwift's `retry` re-subscribes from the start: a stream that fails after 1, 2 and succeeds on
    /// its third subscription delivers 1, 2, 1, 2, 1, 2, 3, after waits of 100 and 200 ms.
    @Test func aStreamIsResubscribedFromItsStartAfterEachFailure() async throws {
        let clock = VirtualClock()
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(5))
        let subscriptions = Shared(0)
        let result = await drive(clock) {
            let sequence = Retrier(policy: policy, clock: clock).retrying(using: SystemUniforms()) {
                let number = subscriptions.update {
                    $0 += 1
                    return $0
                }
                return AsyncThrowingStream<Int, any Error> { continuation in
                    continuation.yield(1)
                    continuation.yield(2)
                    if number < 3 {
                        continuation.finish(throwing: ServerError(status: 503))
                    } else {
                        continuation.yield(3)
                        continuation.finish()
                    }
                }
            }
            var elements: [Int] = []
            for try await element in sequence { elements.append(element) }
            return elements
        }
        #expect(try result.get() == [1, 2, 1, 2, 1, 2, 3])
        #expect(subscriptions.value == 3 && clock.now.offset == ms(300))
    }

    /// A hot source gives the same failure again: the task runs once, every re-subscription fails at
    /// once with its error, and the loop stops when its attempts are spent.
    @Test func aHotSourceFailsAgainWithoutNewWork() async throws {
        let clock = VirtualClock()
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(4))
        let work = Shared(0)
        let failed = Task<Int, any Error> {
            work.update { $0 += 1 }
            throw ServerError(status: 503)
        }
        let result = await drive(clock) {
            var elements: [Int] = []
            for try await element in Retrier(policy: policy, clock: clock).retrying(
                using: SystemUniforms(), subscribe: { TaskValue(task: failed) })
            {
                elements.append(element)
            }
            return elements
        }
        guard case .failure(let error as RetryError) = result else {
            Issue.record("expected a RetryError")
            return
        }
        #expect(error.reason == .attemptsExhausted && error.attempts == 4)
        #expect(work.value == 1, "the failed task's work ran once; the retries reached nothing")
    }

    /// `outcome` never throws: the result and every attempt's start, wait, error and decision.
    @Test func anOutcomeCarriesTheWholeHistory() async throws {
        let clock = VirtualClock()
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(5))
        let calls = Shared(0)
        let outcome = await drive(clock) {
            var random = SystemUniforms()
            return await Retrier(policy: policy, clock: clock).outcome(using: &random) { () async throws -> String in
                if calls.update({
                    $0 += 1
                    return $0
                }) < 3 {
                    throw ServerError(status: 503)
                }
                return "ok"
            }
        }
        let result = try outcome.get()
        #expect(try result.result.get() == "ok")
        #expect(result.attempts.map(\.start) == [ms(0), ms(100), ms(300)])
        #expect(result.attempts.map(\.waitBefore) == [ms(0), ms(100), ms(200)])
        #expect(result.attempts.map(\.decision) == [.retry(after: ms(100)), .retry(after: ms(200)), .succeeded])
        guard case .failed(let error as ServerError) = result.attempts[0].outcome else {
            Issue.record("attempt 1 should have failed")
            return
        }
        #expect(error == ServerError(status: 503))

        let exhausted = await drive(clock) {
            var random = SystemUniforms()
            return await Retrier(policy: try BackoffPolicy(budget: .maxAttempts(2)), clock: clock).outcome(
                using: &random
            ) { () async throws -> Int in
                throw ServerError(status: 500)
            }
        }
        let stopped = try exhausted.get()
        guard case .failure(let stop as RetryError) = stopped.result else {
            Issue.record("expected a RetryError")
            return
        }
        #expect(stop.reason == .attemptsExhausted && stopped.attempts.last?.decision == .stop(.attemptsExhausted))
    }

    /// The breaker on the retrier's clock: it opens after the failure threshold, rejects locally while
    /// open, half-opens after its open time and closes after its probes succeed.
    @Test func aBreakerOpensRejectsHalfOpensAndCloses() async throws {
        let clock = VirtualClock()
        let breaker = SharedCircuitBreaker(
            try CircuitBreaker(
                failureThreshold: 0.5, minimumRequests: 4, window: .seconds(10), openDuration: .seconds(5), probes: 2),
            clock: clock)
        let retrier = Retrier(policy: try BackoffPolicy(budget: .maxAttempts(1)), clock: clock, breaker: breaker)
        let sent = Shared(0)
        func call(failing: Bool) async -> Result<Int, any Error> {
            var random = SystemUniforms()
            return await retrier.outcome(using: &random) { () async throws -> Int in
                sent.update { $0 += 1 }
                if failing { throw ServerError(status: 503) }
                return 1
            }.result
        }
        for _ in 0..<4 { _ = await call(failing: true) }
        #expect(breaker.current.state == .open(until: 5_000_000_000))
        guard case .failure(let rejected as RetryError) = await call(failing: false) else {
            Issue.record("should be rejected")
            return
        }
        #expect(
            rejected.reason == .rejectedLocally && rejected.attempts == 0
                && (rejected.lastError as? LocalRejection) == .breakerOpen)
        #expect(sent.value == 4, "a rejected attempt is never sent")

        clock.advance(by: .seconds(5))
        #expect(try await call(failing: false).get() == 1)
        #expect(breaker.current.state == .halfOpen(sent: 1, succeeded: 1))
        #expect(try await call(failing: false).get() == 1)
        #expect(breaker.current.state == .closed)
        _ = await call(failing: true)
        #expect(breaker.current.state == .closed, "the counts restarted when it closed")
    }

    /// 200 concurrent callers share one breaker: it opens, later callers are rejected locally, and
    /// every caller ends with a value or a RetryError.
    @Test func twoHundredCallersShareOneBreakerSafely() async throws {
        let clock = VirtualClock()
        let breaker = SharedCircuitBreaker(try CircuitBreaker(minimumRequests: 20), clock: clock)
        let retrier = Retrier(
            policy: try BackoffPolicy(schedule: .immediate, budget: .maxAttempts(3)), clock: clock, breaker: breaker)
        let reasons = Shared<[StopReason]>([])
        let sent = Shared(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    var random = SystemUniforms()
                    do {
                        _ = try await retrier.run(using: &random) { () async throws -> Int in
                            sent.update { $0 += 1 }
                            throw ServerError(status: 503)
                        }
                    } catch let error as RetryError {
                        reasons.update { $0.append(error.reason) }
                    } catch {}
                }
            }
        }
        #expect(reasons.value.count == 200)
        #expect(reasons.value.contains(.rejectedLocally))
        // Every attempt fails and the clock stands still, so the breaker opens at its 20th recorded
        // failure (20 of 20 >= 0.5) and never half-opens: what is sent is what it admitted while
        // closed. An attempt is admitted and its failure recorded with no suspension between, so
        // beyond the 20 only attempts admitted at the same moment on another of the cooperative
        // pool's threads can pass: 20 to 20 + cores - 1 (of 600 that three attempts each allow).
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect((20...(20 + cores - 1)).contains(sent.value), "sent \(sent.value) attempts on \(cores) cores")
        if case .open = breaker.current.state {
        } else {
            Issue.record("the breaker should be open, is \(breaker.current.state)")
        }
    }

    /// The throttle on the retrier's clock rejects locally with the SRE book's probability, computed
    /// from the requests before each one: the first request always goes; after n failed requests (no
    /// accepts) the next is refused with probability n/(n + 1).
    @Test func aThrottleRejectsLocallyOnceRequestsOutnumberAccepts() async throws {
        let clock = VirtualClock()
        let throttle = SharedAdaptiveThrottle(try AdaptiveThrottle(), clock: clock)
        let retrier = Retrier(policy: try BackoffPolicy(budget: .maxAttempts(1)), clock: clock, throttle: throttle)
        // Every draw is 0.99, so request n (0-based, n earlier requests, none accepted) is refused
        // exactly when its probability n/(n + 1) exceeds 0.99: n >= 100. Deterministic, so the count
        // is exact: 100 of 200, the first at n = 100. (K = 3 or a ratio of n/(n + 2) would refuse
        // from n = 199 or n = 198 on.)
        var refusedAt: [Int] = []
        for n in 0..<200 {
            var random = ConstantUniform(value: 0.99)
            let result = await retrier.outcome(using: &random) { () async throws -> Int in
                throw ServerError(status: 503)
            }.result
            if case .failure(let error as RetryError) = result, error.reason == .rejectedLocally { refusedAt.append(n) }
        }
        #expect(refusedAt == Array(100..<200), "refused at \(refusedAt.prefix(5))... (\(refusedAt.count))")
    }

    /// The same draw every time: a scripted uniform source.
    struct ConstantUniform: UniformSource {
        let value: Double
        mutating func nextUniform() -> Double { value }
    }
}
