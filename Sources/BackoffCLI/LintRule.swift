import BackoffPolicies
import Foundation
import RetrySimulation

/// What `backoff lint` checks a retry configuration for: each rule has a name, a severity, one
/// sentence of why, and where the case is made. A rule reads the configuration (``LintSubject``)
/// and returns a finding, or `nil` when it does not apply.
struct LintRule: Sendable {
    enum Severity: String, Sendable, Comparable {
        case warning, error

        static func < (lhs: Self, rhs: Self) -> Bool { lhs == .warning && rhs == .error }
    }

    /// What a rule found: one sentence with its numbers, and its severity when it is not the rule's.
    struct Finding {
        let text: String
        let severity: Severity?

        init(_ text: String, severity: Severity? = nil) { (self.text, self.severity) = (text, severity) }
    }

    let name: String
    /// The severity of its findings (the highest, for a rule whose findings differ).
    let severity: Severity
    let why: String
    let citation: String
    /// The finding for the subject; `nil`: the rule does not fire.
    let check: @Sendable (LintSubject) -> Finding?

    /// The rules, in the order their findings are listed.
    static let all: [LintRule] = [
        noJitter, waitsAtTheCap, retryAfterInLockstep, multipliedRetries, perTryTimeoutNotBelowDeadline,
        elapsedLimitBeforeFirstRetry, hedgeWithoutCancellation, immediateRetryIntoARateLimit, budgetFloorDominates,
    ]

    static let noJitter = LintRule(
        name: "no-jitter", severity: .warning,
        why:
            "Clients that fail together and back off without jitter retry together, at every retry: the herd re-forms.",
        citation: "Marc Brooker, \"Exponential Backoff And Jitter\", AWS Architecture Blog, 2015"
    ) { subject in
        guard subject.policy.jitter == .disabled, subject.policy.maxAttempts > 1 else { return nil }
        let first = CSVFormat.seconds(subject.policy.nominalWait(beforeRetry: 1))
        return Finding(
            "jitter none: every client that fails at t = 0 sends its first retry at t = \(first) s, and so on")
    }

    static let waitsAtTheCap = LintRule(
        name: "waits-at-the-cap", severity: .warning,
        why: "Under the clamp rule every draw past the cap becomes the cap: the clients the jitter spread out meet "
            + "there again.",
        citation: "Which jitter, which cap rule (BackoffPolicies); Brooker 2015 (the capped curves)"
    ) { subject in
        guard subject.policy.capMode == .clamp, let cap = subject.policy.cap,
            let share = subject.policy.expectedAtCapFraction, share >= 0.1
        else { return nil }
        return Finding(
            "cap rule clamp: \(percent(share)) of the waits are exactly the cap (\(CSVFormat.seconds(cap)) s)")
    }

    static let retryAfterInLockstep = LintRule(
        name: "retry-after-in-lockstep", severity: .warning,
        why: "A server that tells every client the same Retry-After brings them all back at the same instant unless "
            + "the clients add jitter to it.",
        citation: "RFC 9110 section 10.2.3 (Retry-After); Brooker 2015"
    ) { subject in
        guard subject.retryAfter != .ignore else { return nil }
        return Finding(
            "--retry-after \(subject.retryAfter.rawValue): the server's delay is waited as it is, without jitter")
    }

    static let multipliedRetries = LintRule(
        name: "multiplied-retries", severity: .error,
        why: "Retries at several tiers multiply: a request that fails everywhere costs the product of their attempts "
            + "at the bottom, unless a budget caps them.",
        citation: "Site Reliability Engineering (O'Reilly, 2016), ch. 22 \"Addressing Cascading Failures\": "
            + "4 attempts at 3 tiers cost 64"
    ) { subject in
        let retrying = subject.tiers.filter { $0.attempts > 1 }
        guard retrying.count >= 2, retrying.contains(where: { !$0.hasBudget }) else { return nil }
        let product = retrying.map { "\($0.attempts) (\($0.name))" }.joined(separator: " x ")
        let amplification = subject.amplification
        return Finding(
            "\(retrying.count) tiers retry, not all with a budget: \(product) = \(CSVFormat.number(amplification)) "
                + "attempts at the bottom per request that fails everywhere"
                + (amplification > multipliedRetriesLimit ? ", more than \(Int(multipliedRetriesLimit))" : ""),
            severity: amplification > multipliedRetriesLimit ? .error : .warning)
    }

    /// The amplification above which ``multipliedRetries`` is an error, a warning below.
    static let multipliedRetriesLimit = 10.0

    static let perTryTimeoutNotBelowDeadline = LintRule(
        name: "per-try-timeout-not-below-deadline", severity: .warning,
        why: "A per-try timeout as long as the request's deadline never ends a try before the deadline ends the "
            + "request: no retry follows it (Envoy ignores such a per_try_timeout).",
        citation: "Envoy, config.route.v3.RetryPolicy per_try_timeout and RouteAction timeout"
    ) { subject in
        guard let deadline = subject.deadline else { return nil }
        let long = subject.layers.filter { ($0.timeout ?? .zero) >= deadline }
        guard !long.isEmpty else { return nil }
        return Finding(
            long.map { "layer \($0.name): timeout \($0.timeout!.unitText) >= --deadline \(deadline.unitText)" }.joined(
                separator: "; "))
    }

    static let elapsedLimitBeforeFirstRetry = LintRule(
        name: "elapsed-limit-before-first-retry", severity: .error,
        why: "An elapsed-time limit shorter than the first wait stops the retries before the first one: the attempt "
            + "budget is never used.",
        citation: "cenkalti/backoff ExponentialBackOff.MaxElapsedTime (v4: Stop once elapsed + next wait passes it)"
    ) { subject in
        guard let limit = subject.policy.maxElapsed, subject.policy.maxAttempts > 1 else { return nil }
        let window = subject.policy.waitWindowNanoseconds(after: BackoffState(policy: subject.policy))
        guard Double(limit.wholeNanoseconds) < window.lowerBound else { return nil }
        return Finding(
            "--max-elapsed \(limit.unitText) is below the shortest first wait "
                + "(\(CSVFormat.number(window.lowerBound / 1e9)) s): no request retries")
    }

    static let hedgeWithoutCancellation = LintRule(
        name: "hedge-without-cancellation", severity: .warning,
        why: "Copies nobody cancels are load: full replication helps only below utilisation 1/3 for exponential "
            + "service, and hurts above it.",
        citation: "Vulimiri et al., \"Low Latency via Redundancy\", CoNEXT 2013"
    ) { subject in
        let hedges = subject.hedges.filter { !$0.hedging.cancelsLosers && $0.hedging.copies > 1 }
        guard !hedges.isEmpty else { return nil }
        return Finding(
            hedges.map { "\($0.owner): \($0.hedging.copies) copies, the losers not cancelled" }.joined(
                separator: "; "))
    }

    static let immediateRetryIntoARateLimit = LintRule(
        name: "immediate-retry-into-a-rate-limit", severity: .warning,
        why: "A request refused for its rate and retried at once goes back into the same window that refused it: "
            + "the retry is refused too and spends the client's quota or tokens for nothing.",
        citation: "RFC 6585 section 4 (429 Too Many Requests); urllib3 Retry (backoff_factor * 2^(n-1), 0 s "
            + "before the first retry)"
    ) { subject in
        let immediate =
            subject.policy.firstRetry == .immediate || subject.policy.nominalWait(beforeRetry: 1) == .zero
        guard immediate, subject.policy.maxAttempts > 1 else { return nil }
        if subject.failureKind == .throttling {
            return Finding("the first retry waits 0 s, and the failures are throttling (--failure-kind throttling)")
        }
        if case .awsAdaptive = subject.throttle {
            return Finding("the first retry waits 0 s behind the AWS adaptive rate limiter (--throttle aws-adaptive)")
        }
        return nil
    }

    static let budgetFloorDominates = LintRule(
        name: "budget-floor-dominates", severity: .warning,
        why: "A percentage budget with a floor is the floor at a low request rate: the retries in flight it allows "
            + "are not the percentage of the traffic, and may be most of it.",
        citation: "Envoy issue 25660 (how to choose min_retry_concurrency, closed without an answer); "
            + "Envoy, config.cluster.v3.CircuitBreakers.Thresholds.RetryBudget"
    ) { subject in
        guard let activeRequests = subject.activeRequests else { return nil }
        let budgets =
            [("the clients", subject.budget)] + subject.layers.map { ("layer \($0.name)", $0.limits.budget) }
        let floored = budgets.compactMap { owner, budget -> String? in
            // A percentage with a floor; a bare floor (percent 0, Envoy's max_retries) is a fixed limit.
            guard case .concurrency(let concurrency) = budget, concurrency.budgetPercent > 0 else { return nil }
            let share = concurrency.budgetPercent * activeRequests
            guard share < Double(concurrency.minRetryConcurrency) else { return nil }
            let (floor, allowed) = (concurrency.minRetryConcurrency, percent(concurrency.budgetPercent))
            return "\(owner): \(CSVFormat.number(activeRequests)) requests active, so \(allowed) "
                + "allows \(CSVFormat.number(share)) retries in flight and the floor of \(floor) decides"
                + (activeRequests > 0 ? " (\(percent(Double(floor) / activeRequests)) of the active requests)" : "")
        }
        return floored.isEmpty ? nil : Finding(floored.joined(separator: "; "))
    }

    private static func percent(_ share: Double) -> String {
        String(format: "%.1f %%", 100 * share)
    }
}
