/// The delay of one network hop: |N(mean, sd²)|, in nanoseconds, as in the AWS Architecture Blog's
/// 2015 simulator (a normal draw folded at zero).
public struct NetworkDelay: Hashable, Sendable {
    public let mean: Duration
    public let standardDeviation: Duration

    public init(mean: Duration, standardDeviation: Duration) {
        self.mean = mean
        self.standardDeviation = standardDeviation
    }

    /// 10 ms mean, 2 ms standard deviation.
    public static let standard = NetworkDelay(mean: .milliseconds(10), standardDeviation: .milliseconds(2))
}
