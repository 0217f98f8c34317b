import BackoffPolicies
import RetrySimulation

/// The syntax of `--budget`, `--breaker`, `--throttle` and `--hedge`: a name, then `:key=value`
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
    static let budgetForm =
        "none, token[:max=N][:ratio=R], aws-quota[:max=N][:cost=N][:timeout-cost=N][:throttling-cost=N], ratio[:percent=P][:reserve=N][:window=DURATION] "
        + "or concurrency[:percent=P][:min=N], e.g. token:max=10:ratio=0.1"
    static let breakerForm =
        "none or on[:threshold=F][:min=N][:window=DURATION][:open=DURATION][:probes=N], e.g. on:threshold=0.5"
    static let throttleForm =
        "none, adaptive[:k=K][:window=DURATION] (e.g. adaptive:k=2), or aws-adaptive[:sdk=\(sdkNames)][:scope=shared|per-client]"
    static let hedgeForm =
        "none, on:delay=DURATION[:max-attempts=N][:cancel=yes|no][:cancel-delay=DURATION] (N from 1 to "
        + "\(Hedging.maximumCopies), copies in all), or on:percentile=Q[:cancel=yes|no][:cancel-delay=DURATION] "
        + "(Finagle's backup at the Q-th percentile of recent latencies, 0 < Q <= 1), or "
        + "on:per-try-timeout=DURATION[:max-attempts=N][:backoff-base=DURATION][:backoff-max=DURATION][:cancel=yes|no] "
        + "(Envoy's hedge_on_per_try_timeout), e.g. on:delay=10ms:max-attempts=2, on:percentile=0.99 or "
        + "on:per-try-timeout=100ms"
    static let sdkNames = RateLimiterSDK.allCases.map(\.rawValue).joined(separator: "|")

    /// Counts in a spec: up to a billion (a minimum of requests, of concurrent retries, of probes).
    private static let countRange = 0...1_000_000_000
    /// Token counts and rates in a spec.
    private static let amountRange = 0.0...1e9

    /// A budget, or `nil` for `none`; a malformed or out-of-range parameter throws a message naming it.
    static func parseBudget(_ text: String) throws(InvalidValue) -> RetryBudget? {
        let parameters = try SpecParameters(text, keys: keys(budget: text))
        switch parameters.name {
        case "none" where parameters.isEmpty:
            return nil
        case "token":
            let max = try parameters.number("max", 10, in: amountRange, "a number of tokens")
            let ratio = try parameters.number("ratio", 0.1, in: amountRange, "a number of tokens")
            return .tokenBucket(
                try parameters.model { () throws(BudgetError) in
                    try TokenBucketBudget(maxTokens: max, tokenRatio: ratio)
                })
        case "aws-quota":
            let standard = RetryQuota.awsStandard
            let maximum = try parameters.count("max", standard.maximum, in: 1...countRange.upperBound)
            let cost = try parameters.count("cost", standard.retryCost, in: countRange)
            let timeoutCost = try parameters.count("timeout-cost", standard.timeoutRetryCost, in: countRange)
            let throttlingCost = try parameters.count("throttling-cost", cost, in: countRange)
            return .quota(
                try parameters.model { () throws(BudgetError) in
                    try RetryQuota(
                        maximum: maximum, retryCost: cost, timeoutRetryCost: timeoutCost,
                        throttlingRetryCost: throttlingCost)
                })
        case "ratio":
            let percent = try parameters.number(
                "percent", 0.1, in: 0...1, "a fraction (0.1 is 10 %, as Finagle's percentCanRetry)")
            let reserve = try parameters.number("reserve", 10, in: amountRange, "retries per second")
            let window = try parameters.duration("window", .seconds(10))
            return .ratio(
                try parameters.model { () throws(BudgetError) in
                    try RatioBudget(percentCanRetry: percent, minRetriesPerSecond: reserve, window: window)
                })
        case "concurrency":
            let percent = try parameters.number(
                "percent", 0.2, in: 0...1, "a fraction (0.2 is 20 %, as Envoy's budget_percent)")
            let min = try parameters.count("min", 3, in: countRange)
            return .concurrency(
                try parameters.model { () throws(BudgetError) in
                    try ConcurrencyBudget(budgetPercent: percent, minRetryConcurrency: min)
                })
        default:
            throw InvalidValue(
                unknownName(parameters.name, among: ["none", "token", "aws-quota", "ratio", "concurrency"]))
        }
    }

    /// The keys the budget named at the start of `text` takes.
    private static func keys(budget text: String) -> [String] {
        switch text.prefix(while: { $0 != ":" }) {
        case "token": ["max", "ratio"]
        case "aws-quota": ["max", "cost", "timeout-cost", "throttling-cost"]
        case "ratio": ["percent", "reserve", "window"]
        case "concurrency": ["percent", "min"]
        default: []
        }
    }

    /// A breaker, or `nil` for `none`.
    static func parseBreaker(_ text: String) throws(InvalidValue) -> CircuitBreaker? {
        let on = text.hasPrefix("on:") || text == "on"
        let parameters = try SpecParameters(text, keys: on ? ["threshold", "min", "window", "open", "probes"] : [])
        switch parameters.name {
        case "none" where parameters.isEmpty:
            return nil
        case "on":
            let threshold = try parameters.number("threshold", 0.5, in: 0...1, "a fraction of failures (0.5 is 50 %)")
            let minimum = try parameters.count("min", 20, in: 1...countRange.upperBound)
            let window = try parameters.duration("window", .seconds(10))
            let open = try parameters.duration("open", .seconds(5))
            let probes = try parameters.count("probes", 3, in: 1...countRange.upperBound)
            return try parameters.model { () throws(BudgetError) in
                try CircuitBreaker(
                    failureThreshold: threshold, minimumRequests: minimum, window: window, openDuration: open,
                    probes: probes)
            }
        default:
            throw InvalidValue(unknownName(parameters.name, among: ["none", "on"]))
        }
    }

    /// A breaker as `--breaker` takes it: `parseBreaker(text(breaker))` is `breaker`.
    static func text(_ breaker: CircuitBreaker?) -> String {
        guard let breaker else { return "none" }
        return "on:threshold=\(CSVFormat.number(breaker.failureThreshold)):min=\(breaker.minimumRequests):window="
            + "\(breaker.window.unitText):open=\(breaker.openDuration.unitText):probes=\(breaker.probes)"
    }

    /// What `--throttle` puts in front of the clients' attempts: the SRE book's adaptive throttling,
    /// which refuses attempts locally, or the AWS SDKs' adaptive rate limiter, which delays them.
    enum Throttle: Hashable, Sendable {
        case sre(AdaptiveThrottle)
        case awsAdaptive(AdaptiveRateLimiting)
    }

    /// A throttle, or `nil` for `none`.
    static func parseThrottle(_ text: String) throws(InvalidValue) -> Throttle? {
        let name = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
        let keys: [String] =
            switch name {
            case "adaptive": ["k", "window"]
            case "aws-adaptive": ["sdk", "scope"]
            default: []
            }
        let parameters = try SpecParameters(text, keys: keys)
        switch parameters.name {
        case "none" where parameters.isEmpty:
            return nil
        case "adaptive":
            let k = try parameters.number("k", 2, in: 1...1e9, "a number (the SRE book's K)")
            let window = try parameters.duration("window", .seconds(120))
            return .sre(try parameters.model { () throws(BudgetError) in try AdaptiveThrottle(k: k, window: window) })
        case "aws-adaptive":
            let sdk = try parameters.choice(
                "sdk", RateLimiterSDK.botocore.rawValue, among: RateLimiterSDK.allCases.map(\.rawValue),
                "the SDK whose limiter to model: " + RateLimiterSDK.allCases.map(\.rawValue).joined(separator: ", "))
            let scope = try parameters.choice(
                "scope", RateLimiterScope.shared.rawValue, among: RateLimiterScope.allCases.map(\.rawValue),
                "shared (one SDK client for all) or per-client")
            return .awsAdaptive(
                AdaptiveRateLimiting(sdk: RateLimiterSDK(rawValue: sdk)!, scope: RateLimiterScope(rawValue: scope)!))
        default:
            throw InvalidValue(unknownName(parameters.name, among: ["none", "adaptive", "aws-adaptive"]))
        }
    }

    /// A throttle as `--throttle` takes it.
    static func text(_ throttle: Throttle) -> String {
        switch throttle {
        case .sre(let t): "adaptive:k=\(CSVFormat.number(t.k)):window=\(t.window.unitText)"
        case .awsAdaptive(let limiter): "aws-adaptive:sdk=\(limiter.sdk.rawValue):scope=\(limiter.scope.rawValue)"
        }
    }

    /// A budget as `--budget` takes it, every parameter written out but an AWS quota's that are the
    /// standard's: `parseBudget(text(budget))` is `budget`.
    static func text(_ budget: RetryBudget) -> String {
        func number(_ value: Double) -> String { CSVFormat.number(value) }
        switch budget {
        case .tokenBucket(let b): return "token:max=\(number(b.maxTokens)):ratio=\(number(b.tokenRatio))"
        case .quota(let q):
            let standard = RetryQuota.awsStandard
            let parameters = [
                ("max", q.maximum, standard.maximum), ("cost", q.retryCost, standard.retryCost),
                ("timeout-cost", q.timeoutRetryCost, standard.timeoutRetryCost),
                ("throttling-cost", q.throttlingRetryCost, q.retryCost),
            ]
            return (["aws-quota"] + parameters.filter { $0.1 != $0.2 }.map { "\($0.0)=\($0.1)" }).joined(separator: ":")
        case .ratio(let b):
            return
                "ratio:percent=\(number(b.percentCanRetry)):reserve=\(number(b.minRetriesPerSecond)):window=\(b.window.unitText)"
        case .concurrency(let b): return "concurrency:percent=\(number(b.budgetPercent)):min=\(b.minRetryConcurrency)"
        }
    }

    static func unknownName(_ name: String, among names: [String]) -> String {
        let hint = Suggestion.closest(to: name, among: names).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown kind '\(name.quotedInMessage)'\(hint)"
    }

    /// `parseBudget`, with `nil` for text that is not of the form and `.some(nil)` for `none`
    /// (not `try?`, which would flatten a failure into `none`).
    static func budget(_ text: String) -> RetryBudget?? { orNil { () throws(InvalidValue) in try parseBudget(text) } }

    /// `parseBreaker`, likewise.
    static func breaker(_ text: String) -> CircuitBreaker?? {
        orNil { () throws(InvalidValue) in try parseBreaker(text) }
    }

    /// `parseThrottle`, likewise.
    static func throttle(_ text: String) -> Throttle?? {
        orNil { () throws(InvalidValue) in try parseThrottle(text) }
    }

    private static func orNil<Value>(_ parse: () throws(InvalidValue) -> Value?) -> Value?? {
        do { return .some(try parse()) } catch { return nil }
    }
}
