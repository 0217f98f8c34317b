import BackoffPolicies

/// The gate of a scenario without a retry budget, breaker or throttle: admits every attempt, grants
/// every retry the policy makes, and keeps no state. Its methods compile to nothing.
struct NoLimits: RetryGate {
    init(limits: RetryLimits, clients: Int, failureKind: FailureKind, seed: UInt64) {
        precondition(limits.isEmpty, "NoLimits holds no limits")
    }

    @inline(__always) mutating func requestStarted(at time: Int64) {}
    @inline(__always) mutating func admitsAttempt<Random: UniformSource>(at time: Int64, using uniform: inout Random)
        -> Bool
    { true }
    @inline(__always) mutating func tokenWait(client: Int, at time: Int64) -> Int64 { 0 }
    @inline(__always) mutating func takeRequestTokenWait(client: Int) -> Int64 { 0 }
    @inline(__always) func tokenWaitGeneration(client: Int) -> Int32 { 0 }
    @inline(__always) mutating func wakesForToken(client: Int, generation: Int32) -> Bool { true }
    @inline(__always) mutating func popTokenWake() -> (client: Int, generation: Int32)? { nil }
    @inline(__always) var tokenWaitTotal: Int64 { 0 }
    @inline(__always) var meanFillRate: Double? { nil }
    @inline(__always) mutating func recordAnswer(
        success: Bool, throttled: Bool, client: Int, wasRetry: Bool, at time: Int64
    ) {}
    @inline(__always) mutating func feedRateLimiter(
        success: Bool, throttled: Bool, retried: Bool, client: Int, at time: Int64
    ) {}
    @inline(__always) mutating func grantsRetry(client: Int, afterTimeout: Bool, at time: Int64) -> Bool { true }
    @inline(__always) mutating func retryScheduled(client: Int) {}
    @inline(__always) mutating func requestEnded(client: Int) {}
    @inline(__always) mutating func addClients(upTo count: Int) {}
    @inline(__always) mutating func attemptSent(client: Int, at time: Int64) {}
    @inline(__always) mutating func attemptEnded(client: Int, _ answer: ClientAnswer, at time: Int64) {}
    @inline(__always) var concurrencyLimitNow: Int? { nil }
}
