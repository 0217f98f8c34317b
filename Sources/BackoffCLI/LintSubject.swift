import BackoffPolicies
import Foundation
import RetrySimulation

/// The retry configuration `backoff lint` and `explain` read: the clients' policy and limits, and
/// the layers.
struct LintSubject {
    /// The options both commands take to describe it: the policy's, the clients' budget,
    /// Retry-After handling and hedge, and the layers of a stack with their deadline.
    static let specs: [OptionSpec] =
        PolicyOptions.specs(defaultJitter: "none") + [
            ScenarioOptions.budget.spec, ScenarioOptions.retryAfter.spec, ScenarioOptions.hedge.spec,
            ScenarioOptions.throttle.spec, LayerOptions.layer.spec, LayerOptions.deadline.spec, requestRate.spec,
            latency.spec,
        ]

    /// `--request-rate R`: the requests a second the configuration serves, for the rules that
    /// depend on the traffic.
    static let requestRate = Option<Double?>.optional(
        "request-rate", "number", kind: .number, form: "a number of requests a second > 0, e.g. 100",
        help: "The requests a second the configuration serves (with --latency: the requests active at once, "
            + "rate x latency, for budget-floor-dominates).",
        parse: { text throws(InvalidValue) -> Double in
            guard let value = ValueParser.number(text), value > 0, value.isFinite else { throw InvalidValue() }
            return value
        })
    /// `--latency D`: how long a request is active.
    static let latency = Option<Duration?>.optional(
        "latency", "duration", kind: .duration, form: "a duration greater than 0 with a unit, e.g. 50ms",
        help: "How long a request is active, for the requests active at once (with --request-rate).",
        parse: { text throws(InvalidValue) -> Duration in
            let duration = try Parsers.duration(text)
            guard duration > .zero else { throw InvalidValue("the latency must be longer than 0") }
            return duration
        })

    /// The configuration `options` describe, one subject per jitter mode, and the remarks for stderr.
    static func read(_ options: ParsedOptions) throws(CommandLineError) -> (subjects: [LintSubject], warnings: [String])
    {
        let policy = try PolicyOptions(options, defaultJitter: "none")
        let layers = try LayerOptions(options, jitters: policy.policies.map(\.jitter))
        let (budget, retryAfter) = (try options(ScenarioOptions.budget), try options(ScenarioOptions.retryAfter))
        let hedge = try options(ScenarioOptions.hedge) ?? nil
        let (throttle, failureKind) = (try options(ScenarioOptions.throttle), try options(PolicyOptions.failureKind))
        let (rate, latency) = (try options(Self.requestRate), try options(Self.latency))
        guard (rate == nil) == (latency == nil) else {
            throw options.invalid(
                rate == nil ? Self.latency.spec : Self.requestRate.spec,
                detail: "--request-rate and --latency go together (the requests active at once are their product)")
        }
        let active = rate.flatMap { rate in latency.map { rate * $0.nanoseconds / 1e9 } }
        let subjects = policy.policies.enumerated().map { index, candidate in
            LintSubject(
                policy: candidate, budget: budget, retryAfter: retryAfter, clientsHedge: hedge, throttle: throttle,
                failureKind: failureKind, layers: layers.layers[index], deadline: layers.deadline,
                activeRequests: active)
        }
        return (subjects, policy.warnings + layers.warnings)
    }

    /// The rules that fire on this subject, with their findings.
    var findings: [(rule: LintRule, finding: LintRule.Finding)] {
        LintRule.all.compactMap { rule in rule.check(self).map { (rule, $0) } }
    }

    /// A tier that retries: the clients, or a layer.
    struct Tier {
        let name: String
        let attempts: Int
        let hasBudget: Bool
    }

    let policy: BackoffPolicy
    let budget: RetryBudget?
    let retryAfter: RetryAfterHandling
    let clientsHedge: Hedging?
    /// `--throttle`: a client-side limiter in front of every attempt.
    let throttle: Throttle?
    /// `--failure-kind`: what the failures are (a preset's rule for them).
    let failureKind: FailureKind
    let layers: [ServiceLayer]
    let deadline: Duration?
    /// The requests active at once, `--request-rate` x `--latency`, when both are given.
    let activeRequests: Double?

    /// The clients, then each layer, top to bottom.
    var tiers: [Tier] {
        [Tier(name: "clients", attempts: policy.maxAttempts, hasBudget: budget != nil)]
            + layers.map { Tier(name: $0.name, attempts: $0.policy.maxAttempts, hasBudget: $0.limits.budget != nil) }
    }

    /// Attempts at the bottom per request when every attempt fails: the product of the tiers'
    /// attempts (a hedge's copies count as attempts of its tier), budgets aside.
    var amplification: Double {
        tiers.reduce(1.0) { $0 * Double($1.attempts) }
    }

    /// The hedges configured, each with what owns it.
    var hedges: [(owner: String, hedging: Hedging)] {
        (clientsHedge.map { [("the clients", $0)] } ?? [])
            + layers.compactMap { layer in layer.hedging.map { ("layer \(layer.name)", $0) } }
    }
}
