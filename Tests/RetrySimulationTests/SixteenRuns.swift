import Testing

@testable import RetrySimulation

/// A mean over 16 independent seeded runs against its closed form: runs are independent where
/// one run's requests are not (a queue's waits are correlated), so the standard error is the runs'
/// sample sd / √16 = sd / 4, and the runs' mean lies within t(15, 0.9995) = 4.07 of them unless
/// the model is wrong: a false alarm once in 1,000 per check.
enum SixteenRuns {
    static let seeds = UInt64(1)...16
    static let criticalT = 4.07

    /// Expects the mean of `values`, one per seed of ``seeds``, within the tolerance of `expected`;
    /// the message names `context`, the seeds and the tolerance.
    static func expectMean(
        _ values: [Double], near expected: Double, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        precondition(values.count == 16, "one value per seed")
        let mean = values.reduce(0, +) / 16
        let sd = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 15).squareRoot()
        let tolerance = criticalT * sd / 4
        #expect(
            abs(mean - expected) <= tolerance,
            "\(context): \(mean) against \(expected) ± \(tolerance), seeds 1...16", sourceLocation: sourceLocation)
    }
    /// The shares of a capacity scenario's requests answered, dropped unserved and served late
    /// (wasted work), each against its closed form over the 16 runs.
    static func expectShares(
        of scenario: Scenario, answered: Double, dropped: Double, late: Double, _ context: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var shares: [(answered: Double, dropped: Double, late: Double)] = []
        for seed in seeds {
            let report = try scenario.run(seed: seed)
            let requests = Double(report.uniqueRequests)
            shares.append(
                (
                    Double(report.successes) / requests, Double(report.expiredDrops) / requests,
                    Double(report.wastedWork) / requests
                ))
        }
        expectMean(shares.map(\.answered), near: answered, context + ", answered", sourceLocation: sourceLocation)
        expectMean(shares.map(\.dropped), near: dropped, context + ", dropped", sourceLocation: sourceLocation)
        expectMean(shares.map(\.late), near: late, context + ", late", sourceLocation: sourceLocation)
    }
}
