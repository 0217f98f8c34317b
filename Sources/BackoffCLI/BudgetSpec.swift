import BackoffPolicies

/// `--budget`: a retry budget, or `none` (see ``LimitSpec`` for the syntax).
enum BudgetSpec: ArgumentCodec {
    static let form =
        "none, token[:max=N][:ratio=R], aws-quota[:max=N][:cost=N][:timeout-cost=N][:throttling-cost=N], ratio[:percent=P][:reserve=N][:window=DURATION] "
        + "or concurrency[:percent=P][:min=N], e.g. token:max=10:ratio=0.1"
    /// A budget, or `nil` for `none`; a malformed or out-of-range parameter throws a message naming it.
    static func parse(_ text: String) throws(InvalidValue) -> RetryBudget? {
        let parameters = try SpecParameters(text, keys: keys(budget: text))
        switch parameters.name {
        case "none" where parameters.isEmpty:
            return nil
        case "token":
            let max = try parameters.number("max", 10, in: LimitSpec.amountRange, "a number of tokens")
            let ratio = try parameters.number("ratio", 0.1, in: LimitSpec.amountRange, "a number of tokens")
            return .tokenBucket(
                try parameters.model { () throws(BudgetError) in
                    try TokenBucketBudget(maxTokens: max, tokenRatio: ratio)
                })
        case "aws-quota":
            let standard = RetryQuota.awsStandard
            let maximum = try parameters.count("max", standard.maximum, in: 1...LimitSpec.countRange.upperBound)
            let cost = try parameters.count("cost", standard.retryCost, in: LimitSpec.countRange)
            let timeoutCost = try parameters.count("timeout-cost", standard.timeoutRetryCost, in: LimitSpec.countRange)
            let throttlingCost = try parameters.count("throttling-cost", cost, in: LimitSpec.countRange)
            return .quota(
                try parameters.model { () throws(BudgetError) in
                    try RetryQuota(
                        maximum: maximum, retryCost: cost, timeoutRetryCost: timeoutCost,
                        throttlingRetryCost: throttlingCost)
                })
        case "ratio":
            let percent = try parameters.number(
                "percent", 0.1, in: 0...1, "a fraction (0.1 is 10 %, as Finagle's percentCanRetry)")
            let reserve = try parameters.number("reserve", 10, in: LimitSpec.amountRange, "retries per second")
            let window = try parameters.duration("window", .seconds(10))
            return .ratio(
                try parameters.model { () throws(BudgetError) in
                    try RatioBudget(percentCanRetry: percent, minRetriesPerSecond: reserve, window: window)
                })
        case "concurrency":
            let percent = try parameters.number(
                "percent", 0.2, in: 0...1, "a fraction (0.2 is 20 %, as Envoy's budget_percent)")
            let min = try parameters.count("min", 3, in: LimitSpec.countRange)
            return .concurrency(
                try parameters.model { () throws(BudgetError) in
                    try ConcurrencyBudget(budgetPercent: percent, minRetryConcurrency: min)
                })
        default:
            throw InvalidValue(
                LimitSpec.unknownName(parameters.name, among: ["none", "token", "aws-quota", "ratio", "concurrency"]))
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

    /// A budget as `--budget` takes it, every parameter written out but an AWS quota's that are the
    /// standard's: `parse(print(budget))` is `budget`.
    static func print(_ budget: RetryBudget?) -> String {
        guard let budget else { return "none" }
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
}
