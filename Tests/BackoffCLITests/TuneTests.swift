import Foundation
import Testing

@testable import BackoffCLI

/// `backoff tune`: a search that beats a hand sweep, whose answer holds on a new seed, and whose bad
/// input is a usage error naming the option.
@Suite(.slow) struct TuneTests {
    static let scenario = ["--clients", "2000", "--server", "outage:2s"]
    static let goal = [
        "--objective", "p99_total_wait_s", "--constraint", "peak_retry_load<=120", "--constraint", "give_ups<=0",
    ]
    static let space = [
        "--search", "base=10ms..1s,multiplier=1.5..4,max-attempts=3..12,jitter=full|equal|decorrelated",
    ]

    /// The example: at least as good as the best feasible point of a hand sweep over three
    /// jitters x base {50, 100, 200 ms} x multiplier {2, 3} x attempts {6, 8, 10}; tune itself re-runs
    /// its answer on a fresh seed and exits 0 only if the constraints still hold there.
    @Test func tuneBeatsAHandSweepAndItsAnswerHoldsOnANewSeed() throws {
        let tuned = Invocation(["tune"] + Self.scenario + Self.goal + Self.space + ["--jobs", "2"])
        #expect(tuned.status == 0, "\(tuned.stderr)")
        #expect(tuned.stderr.contains("the constraints still hold"), "\(tuned.stderr)")
        #expect(tuned.field("feasible") == "yes" && tuned.field("pareto") == "yes")
        let best = try #require(tuned.field("p99_total_wait_s").flatMap(Double.init))

        let hand = Invocation(
            ["sweep", "simulate"] + Self.scenario + [
                "--jitter", "full,equal,decorrelated", "--base", "50ms,100ms,200ms",
                "--multiplier", "2,3", "--max-attempts", "6,8,10",
            ])
        let table = CSVReader(text: hand.stdout)
        let column = { (name: String) in table.header.firstIndex(of: name)! }
        let feasible = table.records.filter {
            Double($0[column("peak_retry_load")])! <= 120 && Double($0[column("give_ups")])! <= 0
        }
        let handBest = try #require(feasible.map { Double($0[column("p99_total_wait_s")])! }.min())
        #expect(best <= handBest, "tune \(best) s against the hand sweep's \(handBest) s")
    }

    /// The same inputs give the same table whatever --jobs is.
    @Test func theTableDoesNotDependOnJobs() {
        let arguments = [
            "tune", "--clients", "500", "--server", "outage:1s", "--objective", "mean_total_wait_s",
            "--constraint", "peak_retry_load<=60", "--search", "base=20ms..500ms,jitter=full|equal", "--design", "6",
        ]
        let one = Invocation(arguments + ["--jobs", "1"])
        let two = Invocation(arguments + ["--jobs", "2"])
        #expect(one.status == two.status && one.stdout == two.stdout && !one.stdout.isEmpty)
    }

    /// No candidate can keep the retry peak at 0 with retries allowed: exit 1, naming the constraint
    /// closest to holding.
    @Test func noFeasibleCandidateExits1NamingTheClosestConstraint() {
        let result = Invocation([
            "tune", "--clients", "500", "--server", "outage:1s", "--objective", "p99_total_wait_s",
            "--constraint", "peak_retry_load<=0", "--search", "base=20ms..500ms", "--design", "4",
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "no candidate satisfies every constraint; the closest to holding is peak_retry_load<=0"),
            "\(result.stderr)")
    }

    @Test(
        arguments: [
            (
                ["--objective", "p99_wait", "--search", "base=10ms..1s"],
                "Invalid value 'p99_wait' for '--objective <column>': unknown column 'p99_wait'"
            ),
            (["--objective", "jitter", "--search", "base=10ms..1s"], "'jitter' is not a numeric column"),
            (
                ["--objective", "give_ups", "--constraint", "peak_retry_load=<120", "--search", "base=10ms..1s"],
                "Invalid value 'peak_retry_load=<120' for '--constraint <COLUMN<=VALUE>'"
            ),
            (
                ["--objective", "give_ups", "--search", "base=1s..10ms"],
                "'base=1s..10ms': expected DURATION..DURATION, 0 < A <= B"
            ),
            (["--objective", "give_ups", "--search", "base=100ms..100ms"], "the search space is empty"),
            (
                ["--objective", "give_ups", "--search", "jitter=full..equal"],
                "'jitter' takes choices a|b|c, not a range"
            ),
            (
                ["--objective", "give_ups", "--search", "bass=10ms..1s"],
                "'bass' is not an option tune can search (did you mean 'base'?)"
            ),
            (
                ["--objective", "give_ups", "--base", "1s", "--search", "base=10ms..1s"],
                "'--base' is both given and searched"
            ),
            (["--search", "base=10ms..1s"], "Missing '--objective <column>'"),
        ] as [([String], String)])
    func badInputIsAUsageErrorNamingTheOption(arguments: [String], message: String) {
        let result = Invocation(["tune", "--clients", "100"] + arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
