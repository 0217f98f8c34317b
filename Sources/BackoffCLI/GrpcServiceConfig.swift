import BackoffPolicies
import Foundation

/// A gRPC service config's retry policy and retry throttling (gRPC proposal A6, "Client Retries"),
/// read as a ``Preset``: the policy, and the token budget as its retry budget.
///
/// ```
/// methodConfig[].retryPolicy   maxAttempts (integer >= 2; above 5 clamped to 5), initialBackoff and
///                              maxBackoff (durations as strings, "0.1s"), backoffMultiplier (> 0),
///                              retryableStatusCodes (a non-empty list of codes or names)
/// retryThrottling              maxTokens (0 < x <= 1000), tokenRatio (> 0): the token budget
/// ```
/// The wait before attempt n + 1 is U(0, min(initialBackoff × backoffMultiplier^(n-1), maxBackoff)):
/// full jitter with the cap inside the window. With several method configs, `method`
/// ("service/method") picks one: an exact name first, then the service's, then the default (an
/// empty name); without it the first config with a retry policy is used, and a remark says which.
/// Every failure names the field and the form it expects, and so does a policy the model cannot
/// take (a maxBackoff below initialBackoff, a backoffMultiplier below 1).
struct GrpcServiceConfig {
    /// The config's policy and budget, as a preset named `grpc-service-config`.
    let preset: Preset
    /// Where in the config each option's value comes from (`methodConfig[0].retryPolicy.maxBackoff`).
    let sources: [String: String]
    /// Remarks for stderr: a clamped maxAttempts, the method config chosen.
    let remarks: [String]

    init(json data: Data, method: String?) throws(InvalidValue) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw InvalidValue("not valid JSON (\(error.localizedDescription))")
        }
        guard let config = root as? [String: Any] else {
            throw InvalidValue("the service config must be a JSON object")
        }
        var remarks: [String] = []

        guard let methodConfigs = config["methodConfig"] else {
            throw InvalidValue("methodConfig is missing; expected a list of method configs with a retryPolicy")
        }
        guard let list = methodConfigs as? [Any] else {
            throw InvalidValue("methodConfig: expected a list, got \(Self.describe(methodConfigs))")
        }
        var candidates: [(index: Int, names: [(service: String?, method: String?)], retryPolicy: [String: Any])] = []
        for (index, entry) in list.enumerated() {
            guard let object = entry as? [String: Any] else {
                throw InvalidValue("methodConfig[\(index)]: expected an object, got \(Self.describe(entry))")
            }
            guard let policy = object["retryPolicy"] else { continue }
            guard let retryPolicy = policy as? [String: Any] else {
                throw InvalidValue(
                    "methodConfig[\(index)].retryPolicy: expected an object, got \(Self.describe(policy))")
            }
            candidates.append((index, try Self.names(object["name"], at: "methodConfig[\(index)].name"), retryPolicy))
        }
        guard !candidates.isEmpty else { throw InvalidValue("no methodConfig has a retryPolicy") }

        var chosen = candidates[0]
        if let method {
            let parts = method.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw InvalidValue(
                    "--grpc-method '\(method)': expected SERVICE/METHOD, e.g. helloworld.Greeter/SayHello")
            }
            /// 0: the exact method; 1: every method of the service; 2: the default (an empty name).
            func rank(_ name: (service: String?, method: String?)) -> Int? {
                if name.service == parts[0] && name.method == parts[1] { return 0 }
                if name.service == parts[0] && name.method == nil { return 1 }
                if name.service == nil && name.method == nil { return 2 }
                return nil
            }
            let ranked = candidates.compactMap { candidate in
                candidate.names.compactMap(rank).min().map { ($0, candidate) }
            }
            guard let best = ranked.min(by: { $0.0 < $1.0 }) else {
                throw InvalidValue("no methodConfig with a retryPolicy names '\(method)'")
            }
            chosen = best.1
        } else {
            let label = chosen.names.first.map { "\($0.service ?? "*")/\($0.method ?? "*")" } ?? "no name"
            remarks.append(
                "using methodConfig[\(chosen.index)] (\(label)); pick another with --grpc-method SERVICE/METHOD")
        }

        let path = "methodConfig[\(chosen.index)].retryPolicy"
        let policy = chosen.retryPolicy
        var attempts = try Self.integer(policy["maxAttempts"], at: "\(path).maxAttempts", form: "an integer >= 2")
        guard attempts >= 2 else {
            throw InvalidValue("\(path).maxAttempts: expected an integer >= 2, got \(attempts)")
        }
        if attempts > 5 {
            remarks.append("\(path).maxAttempts \(attempts) is clamped to 5, as gRPC does")
            attempts = 5
        }
        let initial = try Self.duration(policy["initialBackoff"], at: "\(path).initialBackoff")
        let maximum = try Self.duration(policy["maxBackoff"], at: "\(path).maxBackoff")
        let multiplier = try Self.number(
            policy["backoffMultiplier"], at: "\(path).backoffMultiplier", form: "a number > 0")
        guard multiplier > 0 else {
            throw InvalidValue("\(path).backoffMultiplier: expected a number > 0, got \(multiplier)")
        }
        try Self.statusCodes(policy["retryableStatusCodes"], at: "\(path).retryableStatusCodes")

        let backoffPolicy: BackoffPolicy
        do throws(PolicyError) {
            backoffPolicy = try BackoffPolicy(
                base: initial, schedule: .exponential(multiplier: multiplier), cap: maximum, jitter: .full,
                capMode: .nominal,
                budget: .maxAttempts(attempts))
        } catch {
            throw InvalidValue(Self.describe(error, at: path))
        }
        var budget: RetryBudget?
        if let throttling = config["retryThrottling"] {
            guard let object = throttling as? [String: Any] else {
                throw InvalidValue("retryThrottling: expected an object, got \(Self.describe(throttling))")
            }
            let tokens = try Self.number(
                object["maxTokens"], at: "retryThrottling.maxTokens", form: "a number in (0, 1000]")
            guard tokens > 0, tokens <= 1000 else {
                throw InvalidValue(
                    "retryThrottling.maxTokens: expected a number in (0, 1000], got \(Self.text(tokens))")
            }
            let ratio = try Self.number(object["tokenRatio"], at: "retryThrottling.tokenRatio", form: "a number > 0")
            guard ratio > 0 else {
                throw InvalidValue("retryThrottling.tokenRatio: expected a number > 0, got \(Self.text(ratio))")
            }
            do throws(BudgetError) {
                budget = .tokenBucket(try TokenBucketBudget(maxTokens: tokens, tokenRatio: ratio))
            } catch {
                throw InvalidValue("retryThrottling: \(error)")
            }
        }
        preset = Preset(
            name: "grpc-service-config", library: "gRPC client retries (A6), from a service config",
            policy: backoffPolicy,
            budget: budget, source: "gRPC proposal A6, client retries",
            notes: "U(0, min(initialBackoff m^(n-1), maxBackoff))")
        self.remarks = remarks
        sources = [
            "base": "\(path).initialBackoff", "cap": "\(path).maxBackoff", "multiplier": "\(path).backoffMultiplier",
            "max-attempts": "\(path).maxAttempts", "budget": "retryThrottling",
        ]
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

    /// The `name` list of a method config: each entry {"service": S, "method": M}, either optional.
    private static func names(_ value: Any?, at path: String) throws(InvalidValue) -> [(
        service: String?, method: String?
    )] {
        guard let value else { return [] }
        guard let list = value as? [Any] else { throw InvalidValue("\(path): expected a list, got \(describe(value))") }
        var names: [(service: String?, method: String?)] = []
        for (index, entry) in list.enumerated() {
            guard let object = entry as? [String: Any] else {
                throw InvalidValue(
                    "\(path)[\(index)]: expected an object with service and method, got \(describe(entry))")
            }
            let service = object["service"].flatMap { $0 as? String }.flatMap { $0.isEmpty ? nil : $0 }
            let method = object["method"].flatMap { $0 as? String }.flatMap { $0.isEmpty ? nil : $0 }
            if object["service"] != nil && !(object["service"] is String) {
                throw InvalidValue("\(path)[\(index)].service: expected a string, got \(describe(object["service"]!))")
            }
            if object["method"] != nil && !(object["method"] is String) {
                throw InvalidValue("\(path)[\(index)].method: expected a string, got \(describe(object["method"]!))")
            }
            names.append((service, method))
        }
        return names
    }

    private static func number(_ value: Any?, at path: String, form: String) throws(InvalidValue) -> Double {
        guard let value else { throw InvalidValue("\(path) is missing; expected \(form)") }
        guard let number = value as? NSNumber, !isBoolean(number) else {
            throw InvalidValue("\(path): expected \(form), got \(describe(value))")
        }
        guard number.doubleValue.isFinite else {
            throw InvalidValue("\(path): expected \(form), got \(describe(value))")
        }
        return number.doubleValue
    }

    private static func integer(_ value: Any?, at path: String, form: String) throws(InvalidValue) -> Int {
        let number = try number(value, at: path, form: form)
        guard number == number.rounded(), abs(number) < 1e9 else {
            throw InvalidValue("\(path): expected \(form), got \(text(number))")
        }
        return Int(number)
    }

    /// A protobuf JSON duration: decimal seconds with an `s` suffix ("0.1s", "2s"), greater than 0.
    private static func duration(_ value: Any?, at path: String) throws(InvalidValue) -> Duration {
        let form = "a duration string in seconds greater than 0, e.g. \"0.1s\""
        guard let value else { throw InvalidValue("\(path) is missing; expected \(form)") }
        guard let text = value as? String else {
            throw InvalidValue("\(path): expected \(form), got \(describe(value))")
        }
        let digits = text.dropLast()
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard text.hasSuffix("s"), (1...2).contains(parts.count), !parts[0].isEmpty,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            parts.count == 1 || (1...9).contains(parts[1].count),
            let seconds = Double(digits), seconds > 0
        else { throw InvalidValue("\(path): expected \(form), got \(describe(value))") }
        switch ValueParser.durationReading(String(digits) + "s") {
        case .duration(let duration): return duration
        case .beyondHorizon:
            throw InvalidValue(
                "\(path): \(describe(value)) is longer than virtual time holds, \(ValueParser.horizonText)")
        case .malformed: throw InvalidValue("\(path): expected \(form), got \(describe(value))")
        }
    }

    /// retryableStatusCodes: a non-empty list of status names ("UNAVAILABLE") or codes (14).
    private static func statusCodes(_ value: Any?, at path: String) throws(InvalidValue) {
        let form = "a non-empty list of status codes, e.g. [\"UNAVAILABLE\"]"
        guard let value else { throw InvalidValue("\(path) is missing; expected \(form)") }
        guard let list = value as? [Any], !list.isEmpty else {
            throw InvalidValue("\(path): expected \(form), got \(describe(value))")
        }
        for (index, code) in list.enumerated() {
            if let name = code as? String, statusNames.contains(name.uppercased()) { continue }
            if let number = code as? NSNumber, !isBoolean(number), number.doubleValue == number.doubleValue.rounded(),
                (1...16).contains(number.intValue)
            {
                continue
            }
            throw InvalidValue(
                "\(path)[\(index)]: expected a status name (e.g. \"UNAVAILABLE\") or a code 1-16, got \(describe(code))"
            )
        }
    }

    /// The canonical gRPC status codes other than OK.
    private static let statusNames: Set<String> = [
        "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
        "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
        "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
    ]

    private static func text(_ value: Double) -> String { CSVFormat.number(value) }

    /// JSON's true and false, which Foundation hands over as NSNumbers of type char.
    private static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    /// A JSON value as a message shows it.
    private static func describe(_ value: Any) -> String {
        switch value {
        case is String: "the string \"\(value)\""
        case let number as NSNumber where isBoolean(number): "a boolean"
        case let number as NSNumber: "the number \(text(number.doubleValue))"
        case is [Any]: "a list"
        case is [String: Any]: "an object"
        case is NSNull: "null"
        default: "\(value)"
        }
    }
}
