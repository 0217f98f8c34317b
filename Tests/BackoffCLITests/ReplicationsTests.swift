import Testing

@testable import BackoffCLI

/// `simulate --replications R`: a burst of interacting clients run once has no standard errors
/// (empty `se_` cells and a note), R runs measure them, and the row is otherwise the first run's.
/// That the measured errors are true is `StandardErrorSpreadTests`' part (its last three cases).
@Suite struct ReplicationsTests {
    static let overloaded =
        "simulate --clients 300 --server capacity --workers 2 --queue 10 --service exp:10ms --max-attempts 4 "
        + "--jitter none,full --timeout 100ms"
    static let standardErrors = [
        "se_attempts_per_client", "se_mean_total_wait_s", "se_successes",
    ]

    @Test func aBurstOfInteractingClientsRunOnceHasNoStandardErrors() {
        let once = Invocation(Self.overloaded)
        #expect(once.status == 0, "\(once.stderr)")
        for column in Self.standardErrors {
            #expect(once.field(column, row: 0) == "" && once.field(column, row: 1) == "", "\(column)")
        }
        #expect(
            once.stderr.contains("the se_ columns are empty (jitter none, full)")
                && once.stderr.contains("--replications 10 measures it"), "\(once.stderr)")
    }

    @Test func replicationsMeasureTheErrorsAndLeaveTheRestOfTheRow() throws {
        let once = Invocation(Self.overloaded)
        let five = Invocation(Self.overloaded + " --replications 5")
        #expect(five.status == 0 && five.stderr.isEmpty, "\(five.stderr)")
        let header = try #require(once.rows.first)
        #expect(five.rows.first == header)
        for row in 1...2 {
            for (index, column) in header.enumerated() where !Self.standardErrors.contains(column) {
                #expect(five.rows[row][index] == once.rows[row][index], "\(column), row \(row)")
            }
            for column in Self.standardErrors {
                let error = try #require(five.field(column, row: row - 1).flatMap(Double.init), "\(column)")
                // Without jitter the herd's waves fill the queue alike in every run: 48 successes
                // each time, a spread of 0. Jittered, every mean moves.
                #expect(error.isFinite && (row == 1 ? error >= 0 : error > 0), "\(column), row \(row): \(error)")
            }
        }
    }

    @Test func aQueueNoAttemptWaitedForKeepsItsOwnErrorsRunOnce() {
        // 512 workers for 200 clients: no attempt waits or is turned away, so each client had the
        // server to itself and the sessions are independent.
        let spare = Invocation("simulate --clients 200 --server capacity --workers 512 --jitter full --max-attempts 3")
        #expect(spare.status == 0 && spare.stderr.isEmpty, "\(spare.stderr)")
        #expect(spare.field("peak_queue") == "0" && spare.field("rejected") == "0")
        #expect(spare.field("se_attempts_per_client").flatMap(Double.init) != nil)
    }

    @Test func theOutputIsTheSameForEveryJobs() {
        let one = Invocation(Self.overloaded + " --replications 3 --jobs 1")
        let two = Invocation(Self.overloaded + " --replications 3 --jobs 2")
        #expect(one.status == 0 && one.stdout == two.stdout && !one.stdout.isEmpty)
    }

    @Test func aSweepOverReplicationsKeepsEachPointsRun() throws {
        let sweep = Invocation(
            "sweep simulate --clients 300 --server capacity --workers 2 --queue 10 --jitter full --replications 1,4")
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let header = try #require(sweep.rows.first)
        #expect(sweep.rows.count == 3 && sweep.field("sweep_replications", row: 1) == "4")
        for (index, column) in header.enumerated() where !column.hasPrefix("se_") {
            guard !["sweep_replications", "point_id"].contains(column) else { continue }
            #expect(sweep.rows[1][index] == sweep.rows[2][index], "\(column)")
        }
        #expect(sweep.field("se_successes", row: 0) == "" && sweep.field("se_successes", row: 1) != "")
    }

    @Test func theWorkBoundCountsEveryReplication() {
        let refused = Invocation(Self.overloaded + " --replications 100 --work-limit 100000")
        #expect(refused.status == 64 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("100 replications"), "\(refused.stderr)")
    }

    @Test(arguments: ["0", "-1", "10001", "1e3", "nan", "", "2.5", "99999999999999999999999", "ten"])
    func aBadCountIsAUsageError(value: String) {
        let result = Invocation(Self.overloaded.split(separator: " ").map(String.init) + ["--replications", value])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(value): \(result.stderr)")
        #expect(
            result.stderr.contains("--replications") && result.stderr.contains("a whole number from 1 to 10000"),
            "\(value): \(result.stderr)")
    }
}
