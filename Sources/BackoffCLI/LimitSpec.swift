import BackoffPolicies

/// The syntax of `--budget`, `--breaker` and `--throttle`: a name, then `:key=value` parameters
/// (colons, not commas, so that a sweep can list several: `--budget none,token,aws-quota`).
///
/// ```
/// --budget none | token[:max=10][:ratio=0.1] | aws-quota | ratio[:percent=0.1][:reserve=10][:window=10s]
///          | concurrency[:percent=0.2][:min=3]
/// --breaker none | on[:threshold=0.5][:min=20][:window=10s][:open=5s][:probes=3]
/// --throttle none | adaptive[:k=2][:window=120s]
/// ```
enum LimitSpec {
    static let budgetForm = "none, token[:max=N][:ratio=R], aws-quota, ratio[:percent=P][:reserve=N][:window=DURATION] "
        + "or concurrency[:percent=P][:min=N], e.g. token:max=10:ratio=0.1"
    static let breakerForm = "none or on[:threshold=F][:min=N][:window=DURATION][:open=DURATION][:probes=N], e.g. on:threshold=0.5"
    static let throttleForm = "none or adaptive[:k=K][:window=DURATION], e.g. adaptive:k=2"

    /// The name and the `key=value` parameters of `text`; `nil` when a parameter is malformed or
    /// not one of `keys`.
    private static func parts(_ text: String, keys: Set<String>) -> (name: String, values: [String: String])? {
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var values: [String: String] = [:]
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, keys.contains(pair[0]), values[pair[0]] == nil else { return nil }
            values[pair[0]] = pair[1]
        }
        return (pieces[0], values)
    }

    private static func number(_ values: [String: String], _ key: String, _ fallback: Double) -> Double? {
        values[key].map { ValueParser.number($0) } ?? fallback
    }

    private static func count(_ values: [String: String], _ key: String, _ fallback: Int) -> Int? {
        values[key].map { ValueParser.integer($0) } ?? fallback
    }

    private static func duration(_ values: [String: String], _ key: String, _ fallback: Duration) -> Duration? {
        values[key].map { ValueParser.duration($0) } ?? fallback
    }

    /// A budget, `.some(nil)` for `none`, or `nil` when `text` is not of the form (or out of range).
    static func budget(_ text: String) -> RetryBudget?? {
        guard let (name, values) = parts(text, keys: ["max", "ratio", "percent", "reserve", "window", "min"]) else { return nil }
        do {
            switch name {
            case "none" where values.isEmpty:
                return .some(nil)
            case "token":
                guard let max = number(values, "max", 10), let ratio = number(values, "ratio", 0.1) else { return nil }
                return .tokenBucket(try TokenBucketBudget(maxTokens: max, tokenRatio: ratio))
            case "aws-quota" where values.isEmpty:
                return .quota(RetryQuota.awsStandard)
            case "ratio":
                guard let percent = number(values, "percent", 0.1), let reserve = number(values, "reserve", 10),
                      let window = duration(values, "window", .seconds(10)) else { return nil }
                return .ratio(try RatioBudget(percentCanRetry: percent, minRetriesPerSecond: reserve, window: window))
            case "concurrency":
                guard let percent = number(values, "percent", 0.2), let min = count(values, "min", 3) else { return nil }
                return .concurrency(try ConcurrencyBudget(budgetPercent: percent, minRetryConcurrency: min))
            default:
                return nil
            }
        } catch {
            return nil
        }
    }

    static func breaker(_ text: String) -> CircuitBreaker?? {
        guard let (name, values) = parts(text, keys: ["threshold", "min", "window", "open", "probes"]) else { return nil }
        switch name {
        case "none" where values.isEmpty:
            return .some(nil)
        case "on":
            guard let threshold = number(values, "threshold", 0.5), let minimum = count(values, "min", 20),
                  let window = duration(values, "window", .seconds(10)), let open = duration(values, "open", .seconds(5)),
                  let probes = count(values, "probes", 3)
            else { return nil }
            // Not `try?`: in an optional of an optional, a failure would read as `none`.
            do {
                return .some(try CircuitBreaker(
                    failureThreshold: threshold, minimumRequests: minimum, window: window, openDuration: open, probes: probes))
            } catch {
                return nil
            }
        default:
            return nil
        }
    }

    static func throttle(_ text: String) -> AdaptiveThrottle?? {
        guard let (name, values) = parts(text, keys: ["k", "window"]) else { return nil }
        switch name {
        case "none" where values.isEmpty:
            return .some(nil)
        case "adaptive":
            guard let k = number(values, "k", 2), let window = duration(values, "window", .seconds(120)) else { return nil }
            do { return .some(try AdaptiveThrottle(k: k, window: window)) } catch { return nil }
        default:
            return nil
        }
    }
}
