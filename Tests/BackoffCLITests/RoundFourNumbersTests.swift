import Foundation
import Testing

@testable import BackoffCLI

/// The wrong numbers of round four (issue 43), each by its command: a column that was empty, 0 or
/// not written where the closed form holds.
@Suite struct RoundFourNumbersTests {
    /// m = 1e155: m^2 overflows, but only the first wait (0.1 s) is under the 5 s cap, so the
    /// closed form is finite: full jitter's variance is 0.1²/12 + 3 x 5²/12 (sd 2.50017), not 0.
    @Test func aHugeMultipliersStandardDeviationIsFinite() throws {
        let full = Invocation("formula --multiplier 1e155 --jitter full")
        #expect(full.status == 0, "\(full.stderr)")
        let sd = try #require(full.field("sd_total_wait_s").flatMap(Double.init))
        let fullExpected: Double = (0.01 / 12 + 3 * 25 / 12).squareRoot()
        #expect(abs(sd - fullExpected) < 1e-12, "\(sd)")
        let equal = Invocation("formula --multiplier 1e155 --jitter equal")
        let equalSD = try #require(equal.field("sd_total_wait_s").flatMap(Double.init))
        let equalExpected: Double = (0.0025 / 12 + 3 * 6.25 / 12).squareRoot()
        #expect(abs(equalSD - equalExpected) < 1e-12, "\(equalSD)")
    }

    /// Every policy column round-trips through `check`: the table is written, read back, its closed
    /// form recomputed from the columns, and equal to the written one (a column the writer leaves
    /// out, as decorrelated-monotone's factor was, makes `check` recompute another policy and fail).
    @Test(arguments: [
        "--jitter decorrelated-monotone --decorrelated-factor 4",
        "--jitter decorrelated --decorrelated-factor 2.5",
        "--jitter none,full,equal,proportional:0.3,upward:0.2,additive:1s,polly-v2",
        "--jitter full --cap-mode clamp --cap 1s",
        "--jitter full --first-retry unjittered --granularity 1ms",
        "--jitter equal --first-retry immediate --generator taus2",
        "--jitter none --max-elapsed 2s --schedule constant",
        "--jitter full --schedule immediate --generator ranlxd2",
        "--preset urllib3-requests --max-attempts 12",
        "--preset envoy-default",
    ])
    func aPolicyRoundTripsThroughCheck(options: String) throws {
        let tables = CheckRecomputeTests()
        let run = Invocation("waits --runs 2000 " + options)
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.rows.count - 1
        let result = try tables.check("waits --runs 2000 " + options)
        #expect(result.status == 0, "\(options): \(result.stdout)")
        #expect(
            result.stdout.contains("\(rows) formula values recomputed from the policy columns"),
            "\(options): \(result.stdout)")
    }

    /// The share of waits at the cap is measured for every generator and shaping option (urllib3's
    /// schedule: 7 of its 11 waits sit at the 6 s cap, exactly, as its formula says).
    @Test(arguments: ["mt19937", "taus2", "ranlxd2"])
    func theShareAtTheCapIsMeasuredForEveryGenerator(generator: String) {
        for shape in ["", " --granularity 1ms", " --first-retry unjittered", " --first-retry immediate"] {
            let run = Invocation(
                "waits --preset urllib3-requests --max-attempts 12 --runs 500 --generator \(generator)" + shape)
            #expect(run.field("at_cap_fraction") == String(7.0 / 11), "\(generator)\(shape): \(run.stdout.prefix(200))")
            #expect(run.field("formula_at_cap_fraction") == String(7.0 / 11), "\(generator)\(shape)")
        }
    }
}
