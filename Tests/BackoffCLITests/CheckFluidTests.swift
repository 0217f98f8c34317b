import Foundation
import Testing

@testable import BackoffCLI

/// `check` answers a `simulate` table's `fluid_` cells again from the row's columns (its capacity
/// server's shape among them: workers, queue, duration_s, drop_expired, degrade_*), so a fluid
/// cell from another build, or edited, or a shape column that no longer matches it, fails.
@Suite struct CheckFluidTests {
    /// Four workers of Exp(20 ms) behind 50 places, Poisson arrivals at 150 a second for 12 s,
    /// capacity down to a quarter from 3 s to 5 s: the fluid calls it vulnerable, and every row
    /// has four fluid cells (no recovery time: it does not recover).
    static let degraded =
        "simulate --server capacity --workers 4 --queue 50 --service exp:20ms --arrivals poisson:150 --duration 12s "
        + "--max-attempts 3 --jitter full,none --timeout 200ms --degrade-from 3s --degrade-until 5s --seed 3"

    let harness = CheckRecomputeTests()

    @Test func anUntouchedTablesFluidCellsAreRecomputed() throws {
        let result = try harness.check(Self.degraded)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("2 rows, 8 comparisons, 0 failed"), "\(result.stdout)")
    }

    /// A fluid cell edited in its fifth digit, another regime, or a shape column that describes
    /// another server: each fails, naming the fluid column and what the recomputation gives.
    @Test(arguments: [
        ("fluid_goodput", "0.1", "fluid_goodput is '0.1', but the fluid model recomputed"),
        (
            "fluid_state", "stable",
            "fluid_state is 'stable', but the fluid model recomputed from the row's columns gives 'vulnerable'"
        ),
        ("fluid_recovered", "yes", "fluid_recovered is 'yes'"),
        ("workers", "5", "fluid_goodput is"),
        ("queue", "10", "fluid_goodput is"),
        ("duration_s", "6", "fluid_goodput is"),
        ("degrade_to", "0.5", "fluid_goodput is"),
        ("degrade_from_s", "1", "fluid_goodput is"),
        ("drop_expired", "yes", "fluid_goodput is"),
    ])
    func anEditedCellFails(column: String, value: String, message: String) throws {
        let result = try harness.check(Self.degraded) { records in harness.set(column, row: 1, to: value, in: &records)
        }
        #expect(result.status == 1, "\(column) = \(value): \(result.stdout)")
        #expect(result.stdout.contains("FAIL row 1 (jitter=full"), "\(column) = \(value): \(result.stdout)")
        #expect(result.stdout.contains(message), "\(column) = \(value): \(result.stdout)")
        #expect(!result.stdout.contains("FAIL row 2"), "\(column) = \(value): \(result.stdout)")
    }

    /// A shape cell that describes no server fails, naming the column and its form.
    @Test(arguments: [
        ("workers", "0"), ("workers", "-1"), ("workers", "four"), ("queue", "-1"), ("duration_s", "0"),
        ("duration_s", "nan"), ("degrade_to", "2"), ("degrade_to", "0"), ("drop_expired", "maybe"),
        ("degrade_from_s", "-1"),
    ])
    func aBrokenShapeCellFailsNamingIt(column: String, value: String) throws {
        let result = try harness.check(Self.degraded) { records in harness.set(column, row: 1, to: value, in: &records)
        }
        #expect(result.status == 1, "\(column) = \(value): \(result.stdout)")
        #expect(
            result.stdout.contains("column \(column) holds '\(value)', which is not"),
            "\(column) = \(value): \(result.stdout)")
    }

    /// A fluid cell where the fluid has none (a burst of clients is no fluid) fails: the cell should
    /// be empty.
    @Test func aFluidCellWithoutAFluidFails() throws {
        let result = try harness.check(
            "simulate --server capacity --clients 200 --service exp:20ms --max-attempts 3 --jitter full --seed 3"
        ) { records in harness.set("fluid_state", row: 1, to: "stable", in: &records) }
        #expect(result.status == 1, "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "fluid_state is 'stable', but the fluid model recomputed from the row's columns has none there"),
            "\(result.stdout)")
    }

    /// A capacity that followed a trace file has steps that no cell holds: its fluid cells are
    /// counted as skipped, never compared with a fluid of another capacity.
    @Test func aCapacityTracesFluidIsSkipped() throws {
        let directory = TemporaryDirectory()
        let trace = try directory.write("time_s,capacity_factor\n0,1\n3,0.25\n5,1\n", to: "capacity.csv")
        let result = try harness.check(
            "simulate --server capacity --workers 4 --queue 50 --service exp:20ms --arrivals poisson:150 --duration 12s "
                + "--max-attempts 3 --jitter full --timeout 200ms --seed 3 --capacity-trace \(trace)")
        #expect(result.stdout.contains("0 comparisons"), "\(result.stdout)")
        #expect(result.stdout.contains("without a formula (skipped)"), "\(result.stdout)")
    }
}
