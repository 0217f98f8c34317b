import BackoffPolicies

/// `--throttle`: a ``Throttle``, or `none` (see ``LimitSpec`` for the syntax).
enum ThrottleSpec: ArgumentCodec {
    static let form =
        "none, adaptive[:k=K][:window=DURATION] (e.g. adaptive:k=2), or aws-adaptive[:sdk=\(sdkNames)][:scope=shared|per-client]"
    static let sdkNames = RateLimiterSDK.allCases.map(\.rawValue).joined(separator: "|")

    /// A throttle, or `nil` for `none`.
    static func parse(_ text: String) throws(InvalidValue) -> Throttle? {
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
            throw InvalidValue(LimitSpec.unknownName(parameters.name, among: ["none", "adaptive", "aws-adaptive"]))
        }
    }

    /// A throttle as `--throttle` takes it: `parse(print(throttle))` is `throttle`.
    static func print(_ throttle: Throttle?) -> String {
        switch throttle {
        case nil: "none"
        case .sre(let t)?: "adaptive:k=\(CSVFormat.number(t.k)):window=\(t.window.unitText)"
        case .awsAdaptive(let limiter)?: "aws-adaptive:sdk=\(limiter.sdk.rawValue):scope=\(limiter.scope.rawValue)"
        }
    }
}
