import BackoffPolicies

extension Scenario {
    /// The scenario as a ``RetrialQueue``, when it is one: a Markov chain whose stationary answers
    /// are the long-run means of the run; `nil` otherwise.
    ///
    /// It is one when every time in it is exponential and nothing in it keeps time or history:
    /// Poisson arrivals of one request per client; one replica of a capacity server, not faulty, with
    /// exponential services, no degradation or capacity profile, a queue that sheds nothing
    /// (FIFO, LIFO or adaptive LIFO: they reorder the queue, not its length) and no Retry-After;
    /// a policy of n attempts whose waits are exponential (`exponential` jitter under cap mode
    /// `nominal`, or a single attempt), with no maximum elapsed time; and no permanent errors,
    /// timeouts, patience, limits, layers, deadline, hedge or recovery trigger.
    ///
    /// A run starts empty and ends when its last request does, so its means differ from the
    /// stationary ones by a warm-up and a drain, a few of the chain's mixing times against the
    /// arrival window.
    public var retrialQueue: RetrialQueue? {
        guard case .capacity(let model) = server, case .poisson(let rate, _) = arrivals,
            model.replicas == 1, model.faultyHosts == nil, model.degradation == nil, model.capacityProfile == nil,
            model.rejectionRetryAfter == nil, !model.queueDiscipline.sheds,
            case .exponential(let mean) = model.serviceTime, mean > .zero,
            requestsPerClient == 1, permanentFraction == 0, retryTrigger == .timer, attemptTimeout == nil,
            patience == nil, limits.isEmpty, layers.isEmpty, deadline == nil, hedging == nil,
            let retryRates = policy.exponentialRetryRates
        else { return nil }
        return RetrialQueue(
            arrivalRate: rate, serviceRate: 1e9 / mean.nanoseconds, workers: model.workers,
            queueLimit: model.queueLimit, retryRates: retryRates)
    }
}

extension BackoffPolicy {
    /// θ_k = 1 / e_k for each retry of a policy whose waits are exponential with means e_k; `nil`
    /// when a wait is not memoryless (another jitter, a clamped cap, a zero wait) or the attempts
    /// are bounded by time (`maxElapsed`). A policy of one attempt has no waits: `[]`.
    public var exponentialRetryRates: [Double]? {
        guard maxElapsed == nil else { return nil }
        let retries = maxAttempts - 1
        guard retries > 0 else { return [] }
        guard jitter == .exponential, capMode == .nominal || cap == nil, retries <= RetrialQueue.maximumStages
        else { return nil }
        var rates: [Double] = []
        for k in 1...retries {
            let mean = nominalWait(beforeRetry: k).nanoseconds / 1e9
            guard mean > 0 else { return nil }
            rates.append(1 / mean)
        }
        return rates
    }
}
