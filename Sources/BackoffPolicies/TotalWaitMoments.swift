/// The mean and variance of a total wait, in seconds (variance in seconds squared).
public struct TotalWaitMoments: Hashable, Sendable {
    public var mean: Double
    public var variance: Double

    public init(mean: Double, variance: Double) {
        self.mean = mean
        self.variance = variance
    }

    /// The standard deviation, √variance (a tiny negative rounding residue counts as zero).
    public var standardDeviation: Double { max(0, variance).squareRoot() }
}
