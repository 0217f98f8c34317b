/// The delay of one network hop: |N(mean, sd²)|, in nanoseconds, as in the AWS Architecture Blog's
/// 2015 simulator (a normal draw folded at zero).
public struct NetworkDelay: Hashable, Sendable {
    public let mean: Int64
    public let standardDeviation: Int64

    public init(mean: Int64, standardDeviation: Int64) {
        self.mean = mean
        self.standardDeviation = standardDeviation
    }

    /// 10 ms mean, 2 ms standard deviation.
    public static let standard = NetworkDelay(mean: 10_000_000, standardDeviation: 2_000_000)
}
