import BackoffPolicies

/// The gate of a scenario with shared ``RetryLimits``: the budget, breaker and throttle, and what
/// they need to know of the clients (requests and retries in flight, the cost of each client's
/// granted retry, for the AWS quota's refund).
struct LimitsInForce: RetryGate {
    private var limits: RetryLimits
    private var activeRequests = 0
    private var activeRetries = 0
    /// Per client, with a budget only: the cost of the retry in flight, and whether one is.
    private var retryCosts: [Int32]
    private var retrying: [Bool]
    /// The cost the budget charged for the retry granted last.
    private var granted = 0
    /// The kind of the server's failures, which sets what a retry after one costs.
    private let failureKind: FailureKind
    /// The client-side rate limiters: one shared, or one per client, each made at its first use
    /// (an SDK client's limiter starts its clocks when the client is made).
    private var rateLimiters: [AdaptiveRateLimiter?]
    /// Σ of the made limiters' fill rates, and how many are made.
    private var fillRateSum = 0.0
    private var madeLimiters = 0
    /// Per client, with a rate limiter only: the token waits of its request so far, and since when
    /// it waits for a token (-1: it does not), nanoseconds; all the token waits so far.
    private var requestTokenWaits: [Int64]
    private var waitingSince: [Int64]
    private(set) var tokenWaitTotal: Int64 = 0
    /// Who waits for the shared limiter's tokens, in its SDK's order.
    private var waiters: TokenWaiters
    /// Whether there is a client-side rate limiter: its paths are skipped at one test otherwise.
    private let hasRateLimiter: Bool
    /// The clients' adaptive concurrency limit (`simulate --limit`), if there is one.
    private let concurrency: ClientConcurrencyLimit?

    /// The bytes these limits hold per client: a budget's retry cost and flag; a rate limiter's
    /// token-wait counters, its waiters' generations (a shared botocore or Java limiter) and each
    /// client's own limiter (per-client scope).
    static func bytesPerClient(_ limits: RetryLimits) -> Int {
        var bytes = limits.budget == nil ? 0 : MemoryLayout<Int32>.stride + MemoryLayout<Bool>.stride
        if limits.concurrencyLimit != nil { bytes += ClientConcurrencyLimit.bytesPerClient }
        if let limiter = limits.rateLimiter {
            bytes += 2 * MemoryLayout<Int64>.stride
            switch (limiter.sdk, limiter.scope) {
            case (_, .perClient): bytes += MemoryLayout<AdaptiveRateLimiter?>.stride
            case (.botocore, .shared), (.javaV2, .shared): bytes += MemoryLayout<Int32>.stride
            case (.goV2, .shared), (.smithySwift, .shared): break
            }
        }
        return bytes
    }

    /// `seed` roots what a concurrency limit draws (Vegas' probe).
    init(limits: RetryLimits, clients: Int, failureKind: FailureKind, seed: UInt64 = 0) {
        self.limits = limits
        concurrency = limits.concurrencyLimit.map { ClientConcurrencyLimit($0, clients: clients, seed: seed) }
        self.failureKind = failureKind
        switch limits.rateLimiter?.scope {
        case nil: rateLimiters = []
        case .shared: rateLimiters = [nil]
        case .perClient: rateLimiters = [AdaptiveRateLimiter?](repeating: nil, count: clients)
        }
        requestTokenWaits = [Int64](repeating: 0, count: limits.rateLimiter == nil ? 0 : clients)
        waitingSince = [Int64](repeating: -1, count: limits.rateLimiter == nil ? 0 : clients)
        hasRateLimiter = limits.rateLimiter != nil
        waiters = TokenWaiters(
            sdk: limits.rateLimiter?.sdk ?? .botocore, scope: limits.rateLimiter?.scope ?? .perClient,
            clients: clients)
        retryCosts = [Int32](repeating: 0, count: limits.budget == nil ? 0 : clients)
        retrying = [Bool](repeating: false, count: limits.budget == nil ? 0 : clients)
    }

    /// Room for `count` clients (a service layer's calls, numbered as they come): a budget's
    /// per-client state grows to it. A layer holds no rate limiter, whose state does not grow.
    mutating func addClients(upTo count: Int) {
        precondition(!hasRateLimiter, "a rate limiter's clients are fixed when it is made")
        concurrency?.addClients(upTo: count)
        guard limits.budget != nil, retryCosts.count < count else { return }
        retryCosts.append(contentsOf: repeatElement(0, count: count - retryCosts.count))
        retrying.append(contentsOf: repeatElement(false, count: count - retrying.count))
    }

    mutating func requestStarted(at time: Int64) {
        activeRequests += 1
        limits.budget?.requestStarted(at: time)
    }

    mutating func admitsAttempt<Random: UniformSource>(at time: Int64, using uniform: inout Random) -> Bool {
        // A place under the concurrency limit first: an attempt it refuses never reaches the others.
        if let concurrency, !concurrency.admits(at: time) { return false }
        if limits.throttle != nil {
            // The probability from the requests before this one (a fresh client rejects nothing),
            // then this request counts, sent or rejected.
            let rejected = uniform.nextUniform() < limits.throttle!.rejectionProbability(at: time)
            limits.throttle!.recordRequest(at: time)
            if rejected { return false }
        }
        if limits.breaker != nil {
            return limits.breaker!.allowsRequest(at: time)
        }
        return true
    }

    mutating func tokenWait(client: Int, at time: Int64) -> Int64 {
        guard hasRateLimiter, let sdk = limits.rateLimiter?.sdk else { return 0 }
        if waiters.queuesBehind(client) {
            if waitingSince[client] < 0 { waitingSince[client] = time }
            return .max
        }
        let wait = withRateLimiter(of: client, at: time) { $0.tryAcquire(at: $1) }
        waiters.looked(client, tookToken: wait == 0)
        guard wait > 0 else {
            if waitingSince[client] >= 0 {
                let waited = time - waitingSince[client]
                requestTokenWaits[client] += waited
                tokenWaitTotal += waited
                waitingSince[client] = -1
            }
            return 0
        }
        if waitingSince[client] < 0 { waitingSince[client] = time }
        // Java v2's waits are whole milliseconds; the others' are rounded up to whole nanoseconds,
        // so that the next look finds the token unless another took it.
        return sdk == .javaV2 ? Int64((wait * 1e3).rounded()) * 1_000_000 : max(1, Int64((wait * 1e9).rounded(.up)))
    }

    func tokenWaitGeneration(client: Int) -> Int32 { waiters.generation(of: client) }

    @inline(__always)
    mutating func wakesForToken(client: Int, generation: Int32) -> Bool {
        waiters.wakesUp(client, generation: generation)
    }

    @inline(__always)
    mutating func popTokenWake() -> (client: Int, generation: Int32)? { hasRateLimiter ? waiters.popWake() : nil }

    mutating func takeRequestTokenWait(client: Int) -> Int64 {
        guard hasRateLimiter else { return 0 }
        defer { requestTokenWaits[client] = 0 }
        return requestTokenWaits[client]
    }

    mutating func feedRateLimiter(success: Bool, throttled: Bool, retried: Bool, client: Int, at time: Int64) {
        guard hasRateLimiter, let sdk = limits.rateLimiter?.sdk,
            sdk.feeds(success: success, throttled: throttled, retried: retried)
        else { return }
        withRateLimiter(of: client, at: time) { $0.recordResponse(throttled: throttled, at: $1) }
        waiters.rateChanged()
    }

    mutating func recordAnswer(success: Bool, throttled: Bool, client: Int, wasRetry: Bool, at time: Int64) {
        if limits.budget != nil {
            let cost = wasRetry && !retryCosts.isEmpty ? Int(retryCosts[client]) : nil
            limits.budget!.recordAnswer(success: success, retryCost: cost)
        }
        limits.breaker?.record(success: success, at: time)
        if success { limits.throttle?.recordAccept(at: time) }
    }

    mutating func attemptSent(client: Int, at time: Int64) { concurrency?.attemptSent(client: client, at: time) }

    mutating func attemptEnded(client: Int, _ answer: ClientAnswer, at time: Int64) {
        concurrency?.attemptEnded(client: client, answer, at: time)
    }

    var concurrencyLimitNow: Int? { concurrency?.limit }

    mutating func grantsRetry(client: Int, afterTimeout: Bool, at time: Int64) -> Bool {
        guard limits.budget != nil else {
            granted = 0
            return true
        }
        guard
            let cost = limits.budget!.acquireRetry(
                at: time, afterTimeout: afterTimeout, kind: failureKind, activeRequests: activeRequests,
                activeRetries: activeRetries
            )
        else { return false }
        granted = cost
        return true
    }

    mutating func retryScheduled(client: Int) {
        guard !retryCosts.isEmpty else { return }
        retryCosts[client] = Int32(granted)
        if !retrying[client] {
            retrying[client] = true
            activeRetries += 1
        }
    }

    mutating func requestEnded(client: Int) {
        activeRequests -= 1
        if !retrying.isEmpty && retrying[client] {
            retrying[client] = false
            activeRetries -= 1
        }
    }

    /// Runs `body` on `client`'s rate limiter (the shared one, or its own, made now if new) with the
    /// time in seconds, as the limiter keeps it.
    private mutating func withRateLimiter<Result>(
        of client: Int, at time: Int64, _ body: (inout AdaptiveRateLimiter, Double) -> Result
    ) -> Result {
        let index = rateLimiters.count == 1 ? 0 : client
        let seconds = Double(time) / 1e9
        if rateLimiters[index] == nil {
            rateLimiters[index] = AdaptiveRateLimiter(createdAt: seconds, sdk: limits.rateLimiter!.sdk)
            madeLimiters += 1
            fillRateSum += rateLimiters[index]!.fillRate
        }
        let before = rateLimiters[index]!.fillRate
        let result = body(&rateLimiters[index]!, seconds)
        fillRateSum += rateLimiters[index]!.fillRate - before
        return result
    }

    var meanFillRate: Double? {
        guard !rateLimiters.isEmpty, madeLimiters > 0 else { return nil }
        return rateLimiters.count == 1 ? rateLimiters[0]!.fillRate : fillRateSum / Double(madeLimiters)
    }
}
