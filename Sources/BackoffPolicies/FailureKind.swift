/// The kind of a failed attempt, as the AWS SDKs tell them apart: a throttling error (HTTP 429,
/// `Throttling`, `SlowDown`, ...) or a transient one (HTTP 500-504, a timeout, a connection error).
/// botocore's 2026 retry rules back off from a different base and charge the retry quota a
/// different cost for each (``Preset/policy(for:)``, ``RetryQuota``).
public enum FailureKind: String, CaseIterable, Hashable, Sendable {
    case transient, throttling
}
