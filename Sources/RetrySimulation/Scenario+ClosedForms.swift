import BackoffPolicies

/// Closed-form companions of a scenario, where one exists: a burst of one request per client
/// against an instant server, with no permanent errors, honoured server delays or recovery trigger.
///
/// ```
/// always-fail   attempts = n                      E[W] = the policy's closed form
/// bernoulli:P   attempts = Σ_{k=0}^{n-1} P^k      E[W] = Σ_{k=1}^{n-1} P^k E[w_k]
///               successes = N (1 - P^n)            (retry k happens iff the first k attempts fail)
/// ratelimit:R   Poisson arrivals, one attempt per request (no retries): successes = N (1 - P(throttled)),
///               P(throttled) stationary (`RateLimit.throttledShare(arrivalRate:)`; the run's bucket
///               starts full, which adds at most B successes); with share=F, F P(throttled at F λ)
/// outage:T      no jitter: the schedule is deterministic; the first attempt at t_k >= T succeeds
///               (uncapped: attempts = 1 + min(n - 1, ⌈log_m(1 + (m - 1) T / b)⌉))
///               jitter with independent waits (full, equal, proportional, additive; either cap
///               mode): see `OutageLoad` (numerical convolution)
/// ```
extension Scenario {
    /// The expected attempts per client, total wait (seconds) and fraction of clients that succeed;
    /// `nil` where this toolkit has no closed form.
    public var closedForm: (attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double)? {
        closedForm(expectedLoad: expectedLoad)
    }

    /// ``closedForm``, given the scenario's ``expectedLoad`` (computed once by a caller that needs both).
    public func closedForm(expectedLoad: OutageLoad?) -> (
        attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double
    )? {
        if case .rateLimit(let limit) = server, case .poisson(let rate, _) = arrivals, policy.maxAttempts == 1,
            limits.isEmpty, requestsPerClient == 1, permanentFraction == 0
        {
            return limit.overallThrottledShare(arrivalRate: rate).map { (1, 0, 1 - $0) }
        }
        guard isPlainBurst, let starts = policy.expectedStartTimes else { return nil }
        // With maxElapsed (no jitter), `starts` already stops at the last retry within the limit.
        let n = starts.count
        switch server {
        case .alwaysFail:
            return (Double(n), starts[n - 1], 0)
        case .bernoulli(let p, _):
            var attempts = 0.0
            var wait = 0.0
            var reach = 1.0  // P(attempt k happens) = p^(k-1)
            for k in 0..<n {
                if k > 0 { wait += reach * (starts[k] - starts[k - 1]) }
                attempts += reach
                reach *= p
            }
            return (attempts, wait, 1 - reach)
        case .outage(let end, _):
            if policy.jitter == .disabled || policy.schedule == .immediate {
                let nominal = policy.nominalStartTimes
                if let k = nominal.firstIndex(where: { $0 * 1e9 >= Double(end.nanoseconds) }) {
                    return (Double(k + 1), nominal[k], 1)
                }
                return (Double(nominal.count), nominal[nominal.count - 1], 0)
            }
            return expectedLoad.map { ($0.expectedAttempts, $0.expectedTotalWait, $0.successProbability) }
        default:
            return nil
        }
    }
}

extension Scenario {
    /// The expected load per bucket, for a plain burst against an outage (see ``OutageLoad``);
    /// `nil` for other scenarios, the decorrelated modes and polly-v2.
    public var expectedLoad: OutageLoad? {
        guard isPlainBurst, case .outage(let end, _) = server else { return nil }
        return OutageLoad(policy: policy, outageEnd: end, bucketWidth: bucketWidth)
    }
}
