import BackoffPolicies
import EventSimulation
import RetrySimulation
import Retrying
import Stochastics
import Synchronization
import Testing

/// Records attempt times and counts work, from any task.
final class Recorder: Sendable {
    private let times = Mutex<[Duration]>([])
    private let waits = Mutex<[Duration]>([])
    func attempt(at time: Duration) { times.withLock { $0.append(time) } }
    func wait(_ duration: Duration) { waits.withLock { $0.append(duration) } }
    var attempts: [Duration] { times.withLock { $0 } }
    var recordedWaits: [Duration] { waits.withLock { $0 } }
}

/// A counter or a queue of values shared with escaping closures.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    func update<R: Sendable>(_ body: (inout Value) -> R) -> R { storage.withLock { body(&$0) } }
    var value: Value { storage.withLock { $0 } }
}

struct ServerError: Error, Equatable {
    let status: Int
}

/// Runs `body` in a task and advances `clock` to each sleeper's deadline until the task is done
/// (it yields while the task works, so a busy machine only makes it slower, never wrong).
func drive<T: Sendable>(_ clock: VirtualClock, _ body: @escaping @Sendable () async throws -> T) async -> Result<
    T, any Error
> {
    let done = Shared(false)
    let task = Task {
        defer { done.update { $0 = true } }
        return try await body()
    }
    while !done.value {
        if let deadline = clock.nextDeadline { clock.advance(to: deadline) } else { await Task.yield() }
    }
    return await task.result
}

/// Retries as timelines on a virtual clock, the way the Combine and RxSwift literature tests them.
@Suite struct RetrierTests {
    func ms(_ value: Int64) -> Duration { .milliseconds(value) }

    @Test func attemptsStartAt0And100And300And700Milliseconds() async throws {
        let clock = VirtualClock()
        let recorder = Recorder()
        let policy = try BackoffPolicy(
            base: .milliseconds(100), schedule: .exponential(multiplier: 2), budget: .maxAttempts(4))
        let result = await drive(clock) {
            var random = SystemUniforms()
            return try await Retrier(policy: policy, clock: clock).run(using: &random) { () async throws -> Int in
                recorder.attempt(at: clock.now.offset)
                throw ServerError(status: 503)
            }
        }
        #expect(recorder.attempts == [ms(0), ms(100), ms(300), ms(700)])
        guard case .failure(let error as RetryError) = result else {
            Issue.record("expected a RetryError")
            return
        }
        #expect(error.reason == .attemptsExhausted && error.attempts == 4)
        #expect((error.lastError as? ServerError) == ServerError(status: 503))
    }

    @Test func aPermanentErrorStopsAtTheFirstFailure() async throws {
        let clock = VirtualClock()
        let recorder = Recorder()
        let policy = try BackoffPolicy(budget: .maxAttempts(5))
        let result = await drive(clock) {
            var random = SystemUniforms()
            return try await Retrier(policy: policy, clock: clock).run(
                using: &random, classify: { ($0 as? ServerError)?.status == 404 ? .permanent : .transient }
            ) { () async throws -> Int in
                recorder.attempt(at: clock.now.offset)
                throw ServerError(status: 404)
            }
        }
        #expect(recorder.attempts == [.zero])
        guard case .failure(let error as RetryError) = result else {
            Issue.record("expected a RetryError")
            return
        }
        #expect(error.reason == .permanentError && error.attempts == 1)
    }

    @Test func anErrorTheClassifierDoesNotRetryIsNotRetried() async throws {
        struct DecodingFailure: Error {}
        let clock = VirtualClock()
        let recorder = Recorder()
        let result = await drive(clock) {
            var random = SystemUniforms()
            return try await Retrier(policy: try BackoffPolicy(), clock: clock).run(
                using: &random, classify: { $0 is ServerError ? .transient : .permanent }
            ) { () async throws -> Int in
                recorder.attempt(at: clock.now.offset)
                throw DecodingFailure()
            }
        }
        #expect(recorder.attempts.count == 1)
        if case .failure(let error as RetryError) = result {
            #expect(error.reason == .permanentError)
        } else {
            Issue.record("expected a RetryError")
        }
    }

    /// Full jitter with a seeded generator: every wait lies in [0, e_k] and under the cap.
    @Test func fullJitterWaitsStayInTheirWindows() async throws {
        let clock = VirtualClock()
        let recorder = Recorder()
        let policy = try BackoffPolicy(
            base: .milliseconds(100), cap: .milliseconds(500), jitter: .full, budget: .maxAttempts(8))
        let seed: UInt64 = 77
        _ = await drive(clock) {
            var random = try RandomGenerator(seed: seed)
            return try await Retrier(policy: policy, clock: clock).run(
                using: &random,
                onEvent: { event in
                    if case .willRetry(_, let wait, _) = event { recorder.wait(wait) }
                }
            ) { () async throws -> Int in throw ServerError(status: 503) }
        }
        let waits = recorder.recordedWaits
        #expect(waits.count == 7)
        for (k, wait) in waits.enumerated() {
            let window = min(Duration.milliseconds(500), .milliseconds(100 << k))
            #expect(wait >= .zero && wait <= window, "seed \(seed), retry \(k + 1): \(wait) outside [0, \(window)]")
        }
    }

    @Test func aRetryAfterLongerThanTheTimeLeftGivesUpAtOnce() async throws {
        let clock = VirtualClock()
        let recorder = Recorder()
        let policy = try BackoffPolicy(budget: .maxAttempts(10), maxElapsed: .seconds(1))
        let result = await drive(clock) {
            var random = SystemUniforms()
            return try await Retrier(policy: policy, clock: clock).run(
                using: &random, classify: { _ in .retryAfter(.seconds(5)) }
            ) {
                () async throws -> Int in
                recorder.attempt(at: clock.now.offset)
                throw ServerError(status: 429)
            }
        }
        #expect(recorder.attempts == [.zero] && clock.now.offset == .zero, "no wait at all")
        if case .failure(let error as RetryError) = result {
            #expect(error.reason == .timeLimit)
        } else {
            Issue.record("expected a RetryError")
        }
    }

    @Test func aHeaderRetryAfterIsHonouredAndAMalformedOneIsReported() async throws {
        let clock = VirtualClock()
        let recorder = Recorder()
        let malformed = Shared(0)
        let policy = try BackoffPolicy(base: .milliseconds(100), budget: .maxAttempts(3))
        _ = await drive(clock) {
            var random = SystemUniforms()
            let headers = Shared(["2", "soon", "1"])  // one per failure: the third is classified too
            return try await Retrier(policy: policy, clock: clock).run(
                using: &random, classify: { _ in .retryAfterHeader(headers.update { $0.removeFirst() }) },
                onEvent: { if case .malformedRetryAfter = $0 { malformed.update { $0 += 1 } } }
            ) { () async throws -> Int in
                recorder.attempt(at: clock.now.offset)
                throw ServerError(status: 503)
            }
        }
        // Retry-After: 2 -> the second attempt at 2 s; "soon" -> ignored, the backoff (200 ms) instead.
        #expect(recorder.attempts == [.zero, .seconds(2), .milliseconds(2200)])
        #expect(malformed.value == 1)
    }

    @Test func cancellingDuringAWaitEndsItAndNoAttemptFollows() async throws {
        let clock = VirtualClock()
        let recorder = Recorder()
        let policy = try BackoffPolicy(base: .seconds(10), cap: .seconds(10), budget: .maxAttempts(5))
        let task = Task {
            var random = SystemUniforms()
            return try await Retrier(policy: policy, clock: clock).run(using: &random) { () async throws -> Int in
                recorder.attempt(at: clock.now.offset)
                throw ServerError(status: 503)
            }
        }
        #expect(await clock.sleepUntilSomeoneWaits())
        task.cancel()
        let result = await task.result
        if case .failure(let error) = result {
            #expect(error is CancellationError)
        } else {
            Issue.record("expected CancellationError")
        }
        clock.advance(by: .seconds(60))
        #expect(recorder.attempts == [.zero])
        #expect(clock.sleeperCount == 0)
    }

    /// Retrying a closure that hands back a task created once does no new work: every "attempt" sees
    /// the same failure. The operation must start new work each time it is called.
    @Test func reusingAFailedTaskMakesNoNewAttempts() async throws {
        let clock = VirtualClock()
        let work = Shared(0)
        let failed = Task<Int, any Error> {
            work.update { $0 += 1 }
            throw ServerError(status: 503)
        }
        let calls = Shared(0)
        let result = await drive(clock) {
            var random = SystemUniforms()
            return try await Retrier(policy: try BackoffPolicy(budget: .maxAttempts(4)), clock: clock).run(
                using: &random
            ) {
                calls.update { $0 += 1 }
                return try await failed.value
            }
        }
        #expect(calls.value == 4, "the closure was called for each attempt")
        #expect(work.value == 1, "but the work ran once")
        if case .failure(let error as RetryError) = result {
            #expect(error.attempts == 4)
        } else {
            Issue.record("expected a RetryError")
        }
    }

    /// The runtime and the simulation draw the same waits from the same seed.
    @Test(arguments: [Jitter.full, .equal, .decorrelated()])
    func runtimeAndSimulationChooseTheSameWaits(jitter: Jitter) async throws {
        let policy = try BackoffPolicy(
            base: .milliseconds(50), cap: .seconds(2), jitter: jitter, budget: .maxAttempts(8))
        let seed = SeedDerivation.streamSeed(root: 2015, stream: 7)
        let clock = VirtualClock()
        let recorder = Recorder()
        _ = await drive(clock) {
            var random = try RandomGenerator(seed: seed)
            return try await Retrier(policy: policy, clock: clock).run(
                using: &random,
                onEvent: { event in
                    if case .willRetry(_, let wait, _) = event { recorder.wait(wait) }
                }
            ) { () async throws -> Int in throw ServerError(status: 503) }
        }
        var random = try RandomGenerator(seed: seed)
        var client = SimulatedClient(policy: policy)
        var simulated: [Duration] = []
        var now = VirtualClockTime.zero
        _ = client.beginAttempt(at: now, policy: policy) { false }
        while case .retry(let next) = client.answered(
            .failure(serverDelay: nil), at: now, policy: policy, behaviour: ClientBehaviour(), using: &random)
        {
            simulated.append(.nanoseconds(next.nanoseconds - now.nanoseconds))
            now = next
            _ = client.beginAttempt(at: now, policy: policy) { false }
        }
        #expect(recorder.recordedWaits == simulated, "seed \(seed), \(jitter.name)")
        #expect(simulated.count == 7)
    }
}

typealias VirtualClockTime = EventSimulation.VirtualTime
