import BackoffPolicies
import Foundation

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
        if case .component(let component) = server, let form = component.base.closedForm(in: self) { return form }
        if !layers.isEmpty { return layeredClosedForm }
        guard isPlainBurst, let starts = policy.expectedStartTimes else { return nil }
        // With maxElapsed (no jitter), `starts` already stops at the last retry within the limit.
        let n = starts.count
        switch server {
        case .alwaysFail:
            return (Double(n), starts[n - 1], 0)
        case .bernoulli(let p, _):
            return Self.burst(starts: starts, failureProbability: p)
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
    /// A client whose attempts each fail with probability q: attempt k + 1 happens with probability
    /// q^k, so E[attempts] = Σ q^k, E[W] = Σ_{k>=1} q^k (t_k - t_(k-1)) and P(success) = 1 - q^n.
    static func burst(starts: [Double], failureProbability q: Double) -> (
        attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double
    ) {
        var attempts = 0.0
        var wait = 0.0
        var reach = 1.0  // P(attempt k + 1 happens) = q^k
        for k in starts.indices {
            if k > 0 { wait += reach * (starts[k] - starts[k - 1]) }
            attempts += reach
            reach *= q
        }
        return (attempts, wait, 1 - reach)
    }

    /// A burst of single requests through layers to an instant always-fail or Bernoulli(p) server.
    /// Each of the client's attempts fails when all N' = ∏ n_k server attempts under it failed, so
    /// the client meets a Bernoulli(q) server with q = p^N': its waits and successes are those of
    /// ``burst(starts:failureProbability:)``, and its attempts per client count the server's
    /// (``amplificationFormula``). The layers' own waits are not the client's, so they add nothing
    /// to its total wait. `nil` where ``amplificationFormula`` is, or for another server.
    var layeredClosedForm: (attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double)? {
        guard arrivals == .burst, requestsPerClient == 1, retryTrigger == .timer,
            layers.allSatisfy({ $0.hedging == nil }),
            let serverAttempts = amplificationFormula, let starts = policy.expectedStartTimes
        else { return nil }
        let below = layers.reduce(1.0) { $0 * Double($1.policy.maxAttempts) }
        let q: Double
        switch server {
        case .alwaysFail: q = 1
        case .bernoulli(let p, let retryAfter) where retryAfter == nil || self.retryAfter == .ignore:
            q = Foundation.pow(p, below)
        default: return nil
        }
        let client = Self.burst(starts: starts, failureProbability: q)
        return (serverAttempts, client.meanTotalWait, client.successFraction)
    }

    /// The expected load per bucket, for a plain burst against an outage (see ``OutageLoad``);
    /// `nil` for other scenarios, the decorrelated modes and polly-v2.
    public var expectedLoad: OutageLoad? {
        guard isPlainBurst, case .outage(let end, _) = server else { return nil }
        return OutageLoad(policy: policy, outageEnd: end, bucketWidth: bucketWidth)
    }
}
