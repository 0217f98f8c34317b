import Foundation

/// A gRPC service config's retry or hedging policy and retry throttling (gRPC proposal A6, "Client
/// Retries"), read as a ``Preset``: the policy (or the hedge), and the token budget as its retry budget.
///
/// ```
/// methodConfig[].retryPolicy   maxAttempts (integer >= 2; above 5 clamped to 5), initialBackoff and
///                              maxBackoff (durations as strings, "0.1s"), backoffMultiplier (> 0),
///                              retryableStatusCodes (a non-empty list of codes or names)
/// methodConfig[].hedgingPolicy maxAttempts (integer >= 2; above 5 clamped to 5), hedgingDelay (a
///                              duration, 0s when absent), nonFatalStatusCodes (a list, optional);
///                              the preset's hedge, with one attempt and no retries
/// retryThrottling              maxTokens (0 < x <= 1000), tokenRatio (> 0): the token budget
/// ```
/// The wait before attempt n + 1 is U(0, min(initialBackoff × backoffMultiplier^(n-1), maxBackoff)):
/// full jitter with the cap inside the window. With several method configs, `method`
/// ("service/method") picks one: an exact name first, then the service's, then the default (an
/// empty name); without it the first config with a retry policy is used, and a remark says which.
/// Every failure names the field and the form it expects, and so does a policy the model cannot
/// take (a maxBackoff below initialBackoff, a backoffMultiplier below 1).
///
/// An app reads its service config once and retries as gRPC's client would (`Retrier(preset:)`,
/// Retrying); `backoff --grpc-service-config FILE` reads it the same way.
public struct GrpcServiceConfig: Sendable {
    /// The config's policy and budget, as a preset named `grpc-service-config`.
    public let preset: Preset
    /// Where in the config each setting's value comes from (`methodConfig[0].retryPolicy.maxBackoff`).
    public let sources: [Setting: String]
    /// What a reader should be told: the method config chosen, a clamped maxAttempts.
    public let remarks: [Remark]

    /// A setting of the preset that a field of the config gives.
    public enum Setting: Hashable, Sendable, CaseIterable {
        case base, cap, multiplier, maxAttempts, budget, hedge
    }

    /// Something the reading decided that the config did not say outright.
    public enum Remark: Hashable, Sendable, CustomStringConvertible {
        /// No method was asked for: the method config at `index` (the first with a policy), named
        /// `name` (`service/method`, `*` for either part left out), was used.
        case firstMethodConfig(index: Int, name: String)
        /// `path`'s maxAttempts of `given` was clamped to 5, as gRPC clamps it.
        case attemptsClamped(path: String, given: Int)

        public var description: String {
            switch self {
            case .firstMethodConfig(let index, let name): "using methodConfig[\(index)] (\(name))"
            case .attemptsClamped(let path, let given): "\(path).maxAttempts \(given) is clamped to 5, as gRPC does"
            }
        }
    }

    /// A config that is not valid JSON, not a service config, or holds a value out of its form or
    /// range: `description` names the field (`methodConfig[0].retryPolicy.maxBackoff`) and the form
    /// it expects.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String

        init(_ description: String) { self.description = description }
    }

    /// A method's name as `--grpc-method` and ``init(json:method:)`` take it, `SERVICE/METHOD`
    /// (`helloworld.Greeter/SayHello`), split in two; `nil` for any other text.
    public static func methodName(_ text: String) -> (service: String, method: String)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (parts[0], parts[1])
    }

    /// Reads the service config `data` (JSON), for `method` (see ``methodName(_:)``) or, without
    /// one, for the first method config with a policy.
    /// - Throws: ``Invalid``, naming the field at fault.
    public init(json data: Data, method: String?) throws(Invalid) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw Invalid("not valid JSON (\(error.localizedDescription))")
        }
        guard let config = root as? [String: Any] else {
            throw Invalid("the service config must be a JSON object")
        }
        var remarks: [Remark] = []

        guard let methodConfigs = config["methodConfig"] else {
            throw Invalid(
                "methodConfig is missing; expected a list of method configs with a retryPolicy or a hedgingPolicy")
        }
        guard let list = methodConfigs as? [Any] else {
            throw Invalid("methodConfig: expected a list, got \(Self.describe(methodConfigs))")
        }
        var candidates:
            [(index: Int, names: [(service: String?, method: String?)], policy: [String: Any], hedges: Bool)] =
                []
        for (index, entry) in list.enumerated() {
            guard let object = entry as? [String: Any] else {
                throw Invalid("methodConfig[\(index)]: expected an object, got \(Self.describe(entry))")
            }
            if object["retryPolicy"] != nil && object["hedgingPolicy"] != nil {
                throw Invalid(
                    "methodConfig[\(index)]: a method config has a retryPolicy or a hedgingPolicy, not both (A6)")
            }
            let hedges = object["hedgingPolicy"] != nil
            let key = hedges ? "hedgingPolicy" : "retryPolicy"
            guard let policy = object[key] else { continue }
            guard let fields = policy as? [String: Any] else {
                throw Invalid("methodConfig[\(index)].\(key): expected an object, got \(Self.describe(policy))")
            }
            candidates.append(
                (index, try Self.names(object["name"], at: "methodConfig[\(index)].name"), fields, hedges))
        }
        guard !candidates.isEmpty else { throw Invalid("no methodConfig has a retryPolicy or a hedgingPolicy") }

        var chosen = candidates[0]
        if let method {
            guard let parts = Self.methodName(method) else {
                throw Invalid("the method '\(method)': expected SERVICE/METHOD, e.g. helloworld.Greeter/SayHello")
            }
            /// 0: the exact method; 1: every method of the service; 2: the default (an empty name).
            func rank(_ name: (service: String?, method: String?)) -> Int? {
                if name.service == parts.service && name.method == parts.method { return 0 }
                if name.service == parts.service && name.method == nil { return 1 }
                if name.service == nil && name.method == nil { return 2 }
                return nil
            }
            let ranked = candidates.compactMap { candidate in
                candidate.names.compactMap(rank).min().map { ($0, candidate) }
            }
            guard let best = ranked.min(by: { $0.0 < $1.0 }) else {
                throw Invalid("no methodConfig with a retryPolicy or a hedgingPolicy names '\(method)'")
            }
            chosen = best.1
        } else {
            let label = chosen.names.first.map { "\($0.service ?? "*")/\($0.method ?? "*")" } ?? "no name"
            remarks.append(.firstMethodConfig(index: chosen.index, name: label))
        }

        let path = "methodConfig[\(chosen.index)].\(chosen.hedges ? "hedgingPolicy" : "retryPolicy")"
        let policy = chosen.policy
        var attempts = try Self.integer(policy["maxAttempts"], at: "\(path).maxAttempts", form: "an integer >= 2")
        guard attempts >= 2 else {
            throw Invalid("\(path).maxAttempts: expected an integer >= 2, got \(attempts)")
        }
        if attempts > 5 {
            remarks.append(.attemptsClamped(path: path, given: attempts))
            attempts = 5
        }
        let budget = try Self.throttling(config["retryThrottling"])
        if chosen.hedges {
            var delay = Duration.zero
            if let text = policy["hedgingDelay"] { delay = try Self.duration(text, at: "\(path).hedgingDelay") }
            if let codes = policy["nonFatalStatusCodes"] {
                try Self.statusCodes(codes, at: "\(path).nonFatalStatusCodes", allowingEmpty: true)
            }
            let hedging: Hedging
            do throws(Hedging.Invalid) {
                hedging = try Hedging(delay: delay, copies: attempts)
            } catch {
                throw Invalid("\(path): \(error)")
            }
            preset = Preset(
                name: "grpc-service-config", library: "gRPC client hedging (A6), from a service config",
                policy: try! BackoffPolicy(budget: .maxAttempts(1)), budget: budget, hedging: hedging,
                source: "gRPC proposal A6, client retries (hedgingPolicy)",
                notes: "copy k at (k-1) hedgingDelay unless answered; a non-fatal status sends the next at once; "
                    + "hedges only while the throttle's tokens exceed half (not modelled in simulate)")
            self.remarks = remarks
            sources = [.hedge: path, .budget: "retryThrottling"]
            return
        }
        let initial = try Self.duration(policy["initialBackoff"], at: "\(path).initialBackoff")
        let maximum = try Self.duration(policy["maxBackoff"], at: "\(path).maxBackoff")
        let multiplier = try Self.number(
            policy["backoffMultiplier"], at: "\(path).backoffMultiplier", form: "a number > 0")
        guard multiplier > 0 else {
            throw Invalid("\(path).backoffMultiplier: expected a number > 0, got \(multiplier)")
        }
        try Self.statusCodes(policy["retryableStatusCodes"], at: "\(path).retryableStatusCodes")

        let backoffPolicy: BackoffPolicy
        do throws(PolicyError) {
            backoffPolicy = try BackoffPolicy(
                base: initial, schedule: .exponential(multiplier: multiplier), cap: maximum, jitter: .full,
                capMode: .nominal,
                budget: .maxAttempts(attempts))
        } catch {
            throw Invalid(Self.describe(error, at: path))
        }
        preset = Preset(
            name: "grpc-service-config", library: "gRPC client retries (A6), from a service config",
            policy: backoffPolicy,
            budget: budget, source: "gRPC proposal A6, client retries",
            notes: "U(0, min(initialBackoff m^(n-1), maxBackoff))")
        self.remarks = remarks
        sources = [
            .base: "\(path).initialBackoff", .cap: "\(path).maxBackoff", .multiplier: "\(path).backoffMultiplier",
            .maxAttempts: "\(path).maxAttempts", .budget: "retryThrottling",
        ]
    }

    /// `retryThrottling` as the token budget, or `nil` when the config has none.
    private static func throttling(_ throttling: Any?) throws(Invalid) -> RetryBudget? {
        guard let throttling else { return nil }
        guard let object = throttling as? [String: Any] else {
            throw Invalid("retryThrottling: expected an object, got \(Self.describe(throttling))")
        }
        let tokens = try Self.number(
            object["maxTokens"], at: "retryThrottling.maxTokens", form: "a number in (0, 1000]")
        guard tokens > 0, tokens <= 1000 else {
            throw Invalid("retryThrottling.maxTokens: expected a number in (0, 1000], got \(Self.text(tokens))")
        }
        let ratio = try Self.number(object["tokenRatio"], at: "retryThrottling.tokenRatio", form: "a number > 0")
        guard ratio > 0 else {
            throw Invalid("retryThrottling.tokenRatio: expected a number > 0, got \(Self.text(ratio))")
        }
        do throws(BudgetError) {
            return .tokenBucket(try TokenBucketBudget(maxTokens: tokens, tokenRatio: ratio))
        } catch {
            throw Invalid("retryThrottling: \(error)")
        }
    }

    /// A policy the model cannot take, said in the config's words.
    private static func describe(_ error: PolicyError, at path: String) -> String {
        switch error {
        case .capBelowBase(let cap, let base):
            "\(path).maxBackoff \(cap.unitText) is below initialBackoff \(base.unitText); the model takes maxBackoff >= initialBackoff"
        case .multiplierBelowOne(let m):
            "\(path).backoffMultiplier \(text(m)) is below 1; the model takes waits that do not shrink (backoffMultiplier >= 1)"
        default:
            "\(path): \(error)"
        }
    }
}
