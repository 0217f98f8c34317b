import Foundation

extension Scenario {
    /// The closed-form expected server attempts per client request, where one exists: against
    /// an always-failing server ∏ n_k, the attempts of the clients' policy and of every layer's;
    /// against Bernoulli(p) failures (1 − p^N)/(1 − p) with N = ∏ n_k, because the layers
    /// telescope: a layer gives up only when all of its n attempts failed, so the stack fails
    /// a request exactly when N server attempts in a row did, as one tier of N attempts would.
    ///
    /// `nil` when anything but the attempt counts can end a request's retries: a budget, breaker
    /// or throttle, a time limit (a policy's `maxElapsed`, a per-try timeout, a deadline), a
    /// layer's behaviours (a concurrency cap), permanent errors, or another server.
    public var amplificationFormula: Double? {
        guard limits.isEmpty, deadline == nil, permanentFraction == 0, policy.maxElapsed == nil,
            layers.allSatisfy({
                $0.limits.isEmpty && $0.timeout == nil && $0.settings.isEmpty && $0.policy.maxElapsed == nil
            })
        else { return nil }
        let attempts = layers.reduce(Double(policy.maxAttempts)) { $0 * Double($1.policy.maxAttempts) }
        switch server {
        case .alwaysFail:
            return attempts
        case .bernoulli(let p, _):
            return p == 1 ? attempts : (1 - Foundation.pow(p, attempts)) / (1 - p)
        default:
            return nil
        }
    }
}
