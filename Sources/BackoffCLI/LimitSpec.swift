import BackoffPolicies
import RetrySimulation

/// The syntax that `--budget`, `--breaker`, `--throttle` and `--hedge` share (``BudgetSpec``,
/// ``BreakerSpec``, ``ThrottleSpec``, ``HedgeSpec``): a name, then `:key=value`
/// parameters (colons, not commas, so that a sweep can list several: `--budget none,token,aws-quota`).
///
/// ```
/// --hedge none | on:delay=D[:max-attempts=2][:cancel=yes|no] | on:percentile=Q[...] | on:per-try-timeout=T[...]
/// --budget none | token[:max=10][:ratio=0.1] | aws-quota[:max=500][:cost=5][:timeout-cost=10][:throttling-cost=COST] | ratio[:percent=0.1][:reserve=10][:window=10s]
///          | concurrency[:percent=0.2][:min=3]
/// --breaker none | on[:threshold=0.5][:min=20][:window=10s][:open=5s][:probes=3]
/// --throttle none | adaptive[:k=2][:window=120s] | aws-adaptive[:sdk=botocore][:scope=shared]
/// ```
enum LimitSpec {
    /// Counts in a spec: up to a billion (a minimum of requests, of concurrent retries, of probes).
    static let countRange = 0...1_000_000_000
    /// Token counts and rates in a spec.
    static let amountRange = 0.0...1e9

    static func unknownName(_ name: String, among names: [String]) -> String {
        let hint = Suggestion.closest(to: name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown kind '\(name.quotedInMessage)'\(hint)"
    }
}
