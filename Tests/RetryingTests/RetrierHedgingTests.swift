import BackoffPolicies
import Retrying
import Testing

/// `Retrier.hedge` as timelines on a virtual clock: each copy's work is a sleep on the clock, so
/// the copies' start times, who wins, and whom the cancellation reaches are exact.
///
/// Copies and timers run concurrently, so the clock moves only once every task of a step sleeps:
/// each test says how many sleepers (copies working, and the timer of the next copy) each step
/// has, which is itself part of what it checks.
@Suite struct RetrierHedgingTests {
    func ms(_ value: Int64) -> Duration { .milliseconds(value) }

    /// What each copy does: how long it works, and whether it then succeeds, fails or fails fatally.
    enum Work: Sendable {
        case succeed(after: Duration)
        case fail(after: Duration, status: Int)
    }

    /// Hedges `hedging` against copies that do `work[copy - 1]`, recording each copy's start and
    /// whether its task was cancelled.
    func hedge(
        _ hedging: Hedging, _ work: [Work], sleepers: [Int], budget: SharedRetryBudget<VirtualClock>? = nil,
        clock: VirtualClock = VirtualClock()
    ) async -> (result: Result<Int, any Error>, starts: [Int: Duration], cancelled: Set<Int>, end: Duration) {
        let starts = Shared<[Int: Duration]>([:])
        let cancelled = Shared<Set<Int>>([])
        let retrier = Retrier(policy: try! BackoffPolicy(budget: .maxAttempts(1)), clock: clock, budget: budget)
        let result = await drive(clock, sleepers: sleepers) {
            var random = SystemUniforms()
            return try await retrier.hedge(
                hedging, using: &random, classify: { ($0 as? ServerError)?.status == 404 ? .permanent : .transient }
            ) { copy in
                starts.update { $0[copy] = clock.now.offset }
                let (duration, status): (Duration, Int?) =
                    switch work[copy - 1] {
                    case .succeed(let after): (after, nil)
                    case .fail(let after, let status): (after, status)
                    }
                do {
                    try await clock.sleep(until: clock.now.advanced(by: duration))
                } catch {
                    cancelled.update { _ = $0.insert(copy) }
                    throw error
                }
                if let status { throw ServerError(status: status) }
                return copy
            }
        }
        return (result, starts.value, cancelled.value, clock.now.offset)
    }

    /// Copies 100 ms apart: copy 1 is slow, copy 2 answers at 250 ms, copy 3 (sent at 200 ms) is
    /// slow too. Copy 2 wins, and the cancellation reaches copies 1 and 3.
    @Test func copiesGoDelayApartAndTheFirstSuccessCancelsTheOthers() async throws {
        let hedging = try Hedging(delay: ms(100), copies: 3)
        // 0: copy 1 and the timer; 100 ms: copies 1, 2 and the timer; 200 ms: copies 1 to 3.
        let run = await hedge(
            hedging, [.succeed(after: .seconds(1)), .succeed(after: ms(150)), .succeed(after: .seconds(1))],
            sleepers: [2, 3, 3])
        #expect(try run.result.get() == 2)
        #expect(run.starts == [1: ms(0), 2: ms(100), 3: ms(200)])
        #expect(run.cancelled == [1, 3])
        #expect(run.end == ms(250))
    }

    /// A transient failure at 30 ms sends copy 2 at once; copy 3 then goes 100 ms after copy 2.
    @Test func aNonFatalFailureSendsTheNextCopyAtOnce() async throws {
        let hedging = try Hedging(delay: ms(100), copies: 3)
        // 0: copy 1, timer; 30 ms: the stale timer, copy 2, its timer; 100 ms: copy 2, timer;
        // 130 ms: copies 2 and 3.
        let run = await hedge(
            hedging, [.fail(after: ms(30), status: 503), .succeed(after: .seconds(1)), .succeed(after: ms(10))],
            sleepers: [2, 3, 2, 2])
        #expect(try run.result.get() == 3)
        #expect(run.starts == [1: ms(0), 2: ms(30), 3: ms(130)])
        #expect(run.cancelled == [2])
        #expect(run.end == ms(140))
    }

    /// A permanent error from copy 2 ends the call at once and cancels copy 1, still working.
    @Test func aFatalErrorEndsTheCallAndCancelsEveryCopy() async throws {
        let hedging = try Hedging(delay: ms(100), copies: 3)
        let run = await hedge(
            hedging, [.succeed(after: .seconds(1)), .fail(after: ms(20), status: 404), .succeed(after: ms(10))],
            sleepers: [2, 3])
        guard case .failure(let error as RetryError) = run.result else {
            Issue.record("expected a RetryError, got \(run.result)")
            return
        }
        #expect(error.reason == .permanentError && error.attempts == 2)
        #expect((error.lastError as? ServerError)?.status == 404)
        #expect(run.starts.keys.sorted() == [1, 2] && run.cancelled == [1])
        #expect(run.end == ms(120))
    }

    /// Every copy failing: the call throws the last failure once no copy is left in flight. Copy 1
    /// fails at 10 ms and sends copy 2 at once, which fails at 30 ms.
    @Test func everyCopyFailingExhaustsTheCall() async throws {
        let hedging = try Hedging(delay: ms(50), copies: 2)
        // 0: copy 1 and the timer; 10 ms: the timer (stale from now on) and copy 2.
        let run = await hedge(
            hedging, [.fail(after: ms(10), status: 503), .fail(after: ms(20), status: 502)], sleepers: [2, 2])
        guard case .failure(let error as RetryError) = run.result else {
            Issue.record("expected a RetryError, got \(run.result)")
            return
        }
        #expect(error.reason == .attemptsExhausted && error.attempts == 2)
        #expect((error.lastError as? ServerError)?.status == 502)
        #expect(run.starts == [1: ms(0), 2: ms(10)])
        #expect(run.end == ms(30))
    }

    /// gRPC's throttle: hedges go only while the tokens exceed half their maximum (10 and 0.1, the
    /// A6 example), and every failed copy costs a token. Call 1 sends its 3 copies (10 → 7). Call 2
    /// sends 2 (7 → 5): its third is refused at 5 tokens, and the call ends with the budget's
    /// refusal once its copies have failed. Call 3 sends its first copy only (5 → 4).
    @Test func theThrottleStopsHedgesAtHalfItsTokens() async throws {
        let clock = VirtualClock()
        let budget = SharedRetryBudget(.tokenBucket(.grpcExample), clock: clock)
        let hedging = try Hedging(delay: ms(10), copies: 3)
        let failing = [Work](repeating: .fail(after: ms(1), status: 503), count: 3)
        var sent: [Int] = []
        var reasons: [StopReason] = []
        // Each call: copy 1 and its timer; then the copies that follow at once, with their timers.
        for steps in [[2, 3, 3], [2, 3], [2]] {
            let run = await hedge(hedging, failing, sleepers: steps, budget: budget, clock: clock)
            sent.append(run.starts.count)
            if case .failure(let error as RetryError) = run.result { reasons.append(error.reason) }
        }
        #expect(sent == [3, 2, 1])
        #expect(reasons == [.attemptsExhausted, .budgetExhausted, .budgetExhausted])
        guard case .tokenBucket(let bucket) = budget.current else {
            Issue.record("expected the token bucket")
            return
        }
        #expect(bucket.tokens == 4)
    }

    /// The calling task's cancellation reaches every copy and ends the call with `CancellationError`.
    @Test func cancellingTheCallerCancelsEveryCopy() async throws {
        let clock = VirtualClock()
        let cancelled = Shared<Set<Int>>([])
        let retrier = Retrier(policy: try BackoffPolicy(budget: .maxAttempts(1)), clock: clock)
        let hedging = try Hedging(delay: ms(10), copies: 2)
        let task = Task {
            var random = SystemUniforms()
            return try await retrier.hedge(hedging, using: &random) { copy -> Int in
                do {
                    try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))
                } catch {
                    cancelled.update { _ = $0.insert(copy) }
                    throw error
                }
                return copy
            }
        }
        while clock.sleeperCount < 2 { await Task.yield() }  // copy 1 and the timer of copy 2
        clock.advance(by: ms(10))
        while clock.sleeperCount < 2 { await Task.yield() }  // copies 1 and 2
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(cancelled.value == [1, 2])
    }
}

/// Runs `body` in a task, and for each count in `sleepers` waits until that many tasks sleep on
/// `clock`, then advances it to the earliest deadline; then waits for the task. A step whose count
/// never comes (a copy or timer missing, or one too many) is recorded as an issue, and the task
/// cancelled.
func drive<T: Sendable>(
    _ clock: VirtualClock, sleepers: [Int], sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> T
) async -> Result<T, any Error> {
    let task = Task { try await body() }
    for (step, count) in sleepers.enumerated() {
        var yields = 0
        while clock.sleeperCount != count {
            yields += 1
            if yields > 1_000_000 {
                Issue.record(
                    "step \(step): \(clock.sleeperCount) sleepers, expected \(count)", sourceLocation: sourceLocation)
                task.cancel()
                return await task.result
            }
            await Task.yield()
        }
        if let deadline = clock.nextDeadline { clock.advance(to: deadline) }
    }
    return await task.result
}
