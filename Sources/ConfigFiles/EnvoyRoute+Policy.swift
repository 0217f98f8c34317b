import BackoffPolicies

/// One route's retries as Envoy's router computes them.
extension EnvoyRoute {
    /// Envoy's defaults (retry_state_impl.cc, route_components.proto, cluster.proto).
    static let defaultBase = Duration.milliseconds(25)
    static let defaultRouteTimeout = Duration.seconds(15)
    static let defaultRetries = 1
    static let defaultMaxRetries = 3
    static let defaultBudgetPercent = 20.0
    static let defaultMinRetryConcurrency = 3
    /// The most retries the model takes (Envoy takes any uint32).
    static let retryLimit = 1_000_000

    init(_ chosen: Candidate, clusters: [String: (node: YAMLNode, path: String)]) throws(Invalid) {
        var warnings: [String] = []
        var sources: [String: String] = [:]
        let action = chosen.route["route"]
        let actionPath = "\(chosen.path.isEmpty ? "" : chosen.path + ".")route"
        if action == nil {
            warnings.append("\(chosen.name): no route action (route:), so no retries: a redirect or direct response")
        }

        // The retry policy: the route's, else its virtual host's, as a whole.
        var policyNode: YAMLNode?
        var policyPath = ""
        if let node = action?["retry_policy"] {
            (policyNode, policyPath) = (node, "\(actionPath).retry_policy")
        } else if let node = chosen.host["retry_policy"] {
            (policyNode, policyPath) = (node, "\(chosen.hostPath.isEmpty ? "" : chosen.hostPath + ".")retry_policy")
        }
        var retries = 0
        var base = Self.defaultBase
        var maximum: Duration?
        var perTry: Duration?
        if let policyNode {
            guard case .mapping(let members, _) = policyNode else {
                throw Invalid("\(policyPath): expected a mapping (line \(policyNode.line))")
            }
            for (key, _) in members where !Self.retryPolicyFields.contains(key) {
                throw Invalid("\(policyPath).\(key): not a field of Envoy's RetryPolicy (Envoy refuses the file)")
            }
            for (key, _) in members where !Self.modelledFields.contains(key) {
                warnings.append("\(policyPath).\(key): not modelled (the policy is Envoy's schedule and budget)")
            }
            let conditions = try Self.text(policyNode["retry_on"], "\(policyPath).retry_on") ?? ""
            retries = try Self.count(policyNode["num_retries"], "\(policyPath).num_retries") ?? Self.defaultRetries
            if policyNode["num_retries"] != nil { sources["max-retries"] = "\(policyPath).num_retries" }
            if conditions.split(separator: ",").isEmpty {
                warnings.append("\(policyPath).retry_on is empty: Envoy retries nothing on this route")
                retries = 0
            }
            guard retries <= Self.retryLimit else {
                throw Invalid("\(policyPath).num_retries: \(retries) is more than the model takes (\(Self.retryLimit))")
            }
            perTry = try Self.duration(policyNode["per_try_timeout"], "\(policyPath).per_try_timeout")
            if let backOff = policyNode["retry_back_off"] {
                let backOffPath = "\(policyPath).retry_back_off"
                guard let given = try Self.duration(backOff["base_interval"], "\(backOffPath).base_interval") else {
                    throw Invalid("\(backOffPath).base_interval: required when retry_back_off is set")
                }
                guard given >= .milliseconds(1) else {
                    throw Invalid("\(backOffPath).base_interval: Envoy needs at least 1ms, got \(given.unitText)")
                }
                base = given
                sources["base"] = "\(backOffPath).base_interval"
                maximum = try Self.duration(backOff["max_interval"], "\(backOffPath).max_interval")
                if let maximum {
                    guard maximum >= base else {
                        throw Invalid("\(backOffPath).max_interval: must be at least base_interval (\(base.unitText))")
                    }
                    sources["cap"] = "\(backOffPath).max_interval"
                }
            }
        } else {
            warnings.append("\(chosen.name) has no retry_policy (nor has its virtual host): Envoy does not retry it")
        }
        for field in ["hedge_policy"] where action?[field] != nil || chosen.host[field] != nil {
            warnings.append("\(chosen.name): \(field) is not modelled here (simulate --hedge models hedging)")
        }

        // The route timeout spans every try; a per-try timeout at least as long is ignored.
        let timeout = try Self.duration(action?["timeout"], "\(actionPath).timeout") ?? Self.defaultRouteTimeout
        let routeTimeout: Duration? = timeout == .zero ? nil : timeout
        if let given = perTry, let routeTimeout, given >= routeTimeout {
            warnings.append(
                "\(policyPath).per_try_timeout \(given.unitText) is not below the route timeout \(routeTimeout.unitText): Envoy ignores it"
            )
            perTry = nil
        }

        let (budget, budgetSource) = try Self.budget(
            cluster: try Self.text(action?["cluster"], "\(actionPath).cluster"), clusters: clusters,
            warnings: &warnings)
        if let budgetSource { sources["budget"] = budgetSource }

        // The route timeout is the policy's time limit only where the waits can reach it: otherwise it
        // changes nothing a policy decides, and leaving it out keeps the closed forms.
        let cap = maximum ?? base * 10
        // The longest total wait, in seconds (a double: 2^k of a long base overflows a Duration).
        let (baseSeconds, capSeconds) = (base.nanoseconds / 1e9, cap.nanoseconds / 1e9)
        var longest = 0.0
        for k in 0..<min(retries, 1_100) { longest += min(capSeconds, baseSeconds * Double.pow2(k)) }
        longest += Double(max(0, retries - 1_100)) * capSeconds
        let timeoutSeconds = routeTimeout.map { $0.nanoseconds / 1e9 } ?? .infinity
        if let routeTimeout, longest < timeoutSeconds, retries > 0 {
            warnings.append(
                "the route timeout \(routeTimeout.unitText) spans every try; the waits (at most "
                    + "\(Duration.nanoseconds(Int64((longest * 1e9).rounded())).unitText)) never reach it, so it limits "
                    + "the attempts' own time only (simulate: --deadline)")
        }
        let policy: BackoffPolicy
        do {
            policy = try BackoffPolicy(
                base: base, schedule: .exponential(multiplier: 2), cap: cap, jitter: .full, capMode: .nominal,
                budget: .maxRetries(retries), maxElapsed: longest >= timeoutSeconds ? routeTimeout : nil,
                granularity: .milliseconds(1))
        } catch {
            throw Invalid("\(policyPath): \(error)")
        }
        self.name = chosen.name
        self.path = chosen.path
        self.perTryTimeout = perTry
        self.routeTimeout = routeTimeout
        self.warnings = warnings
        self.sources = sources
        self.preset = Preset(
            name: "envoy-route", library: "Envoy route '\(chosen.name)'", policy: policy, budget: budget,
            source: chosen.path.isEmpty ? "the route" : chosen.path,
            notes: "Envoy's router: random() % window ms, window = min(base 2^(k-1), max_interval); "
                + "the route timeout as the time limit; read from Envoy's source, not run")
    }

    /// The cluster's retry budget (`circuit_breakers.thresholds[]` at DEFAULT priority): its
    /// `retry_budget` (20 % with a floor of 3 unless set), else `max_retries` retries in flight (3).
    private static func budget(
        cluster name: String?, clusters: [String: (node: YAMLNode, path: String)], warnings: inout [String]
    ) throws(Invalid) -> (RetryBudget, String?) {
        let fallback = (RetryBudget.concurrency(try concurrency(0, defaultMaxRetries, "")), nil as String?)
        guard let name, let (cluster, path) = clusters[name] else {
            if let name {
                warnings.append("cluster '\(name)' is not in the file: Envoy's default of 3 retries in flight")
            }
            return fallback
        }
        if cluster["outlier_detection"] != nil {
            warnings.append("\(path).outlier_detection: not modelled here (simulate --outlier-detection models it)")
        }
        let thresholdsPath = "\(path).circuit_breakers.thresholds"
        for (i, threshold) in try items(cluster["circuit_breakers"]?["thresholds"], thresholdsPath).enumerated() {
            let at = "\(thresholdsPath)[\(i)]"
            let priority = try text(threshold["priority"], "\(at).priority") ?? "DEFAULT"
            guard priority == "DEFAULT" else { continue }
            if let budget = threshold["retry_budget"] {
                var percent = defaultBudgetPercent
                if let value = budget["budget_percent"] {
                    guard let text = try text(value["value"], "\(at).retry_budget.budget_percent.value"),
                        let number = Double(text), number.isFinite, (0...100).contains(number)
                    else {
                        throw Invalid("\(at).retry_budget.budget_percent: expected {value: P}, P from 0 to 100")
                    }
                    percent = number
                }
                let floor =
                    try count(budget["min_retry_concurrency"], "\(at).retry_budget.min_retry_concurrency")
                    ?? defaultMinRetryConcurrency
                return (.concurrency(try concurrency(percent / 100, floor, at)), "\(at).retry_budget")
            }
            let maxRetries = try count(threshold["max_retries"], "\(at).max_retries") ?? defaultMaxRetries
            return (.concurrency(try concurrency(0, maxRetries, at)), "\(at).max_retries")
        }
        return fallback
    }

    private static func concurrency(_ fraction: Double, _ floor: Int, _ path: String) throws(Invalid)
        -> ConcurrencyBudget
    {
        do {
            return try ConcurrencyBudget(budgetPercent: fraction, minRetryConcurrency: floor)
        } catch {
            throw Invalid("\(path): \(error)")
        }
    }
}

extension Double {
    /// 2^k (infinity past the largest double).
    fileprivate static func pow2(_ k: Int) -> Double { Double(sign: .plus, exponent: k, significand: 1) }
}
