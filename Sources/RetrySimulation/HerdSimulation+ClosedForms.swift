import BackoffPolicies

/// Closed-form companions of a herd scenario, where one exists. Each is `nil` where this toolkit
/// has no closed form yet (random jitter against an outage; random jitter with `maxElapsed`).
///
/// ```
/// always-fail   attempts = n                      E[W] = the policy's closed form
/// bernoulli:P   attempts = Σ_{k=0}^{n-1} P^k      E[W] = Σ_{k=1}^{n-1} P^k E[w_k]
///               successes = N (1 - P^n)            (retry k happens iff the first k attempts fail)
/// outage:T      no jitter: the schedule is deterministic; the first attempt at t_k >= T succeeds
/// ```
extension HerdSimulation {
    /// The expected attempts, total wait (seconds) and successes per client.
    public var closedForm: (attemptsPerClient: Double, meanTotalWait: Double, successFraction: Double)? {
        guard let starts = policy.expectedStartTimes else { return nil }
        // With maxElapsed (no jitter), `starts` already stops at the last retry within the limit.
        let n = starts.count
        switch server {
        case .alwaysFail:
            return (Double(n), starts[n - 1], 0)
        case .bernoulli(let p):
            var attempts = 0.0
            var wait = 0.0
            var reach = 1.0  // P(attempt k happens) = p^(k-1)
            for k in 0..<n {
                if k > 0 { wait += reach * (starts[k] - starts[k - 1]) }
                attempts += reach
                reach *= p
            }
            return (attempts, wait, 1 - reach)
        case .outage(let end):
            guard policy.jitter == .disabled || policy.schedule == .immediate else { return nil }
            let nominal = policy.nominalStartTimes
            if let k = nominal.firstIndex(where: { $0 * 1e9 >= Double(end.nanoseconds) }) {
                return (Double(k + 1), nominal[k], 1)
            }
            return (Double(nominal.count), nominal[nominal.count - 1], 0)
        }
    }
}
