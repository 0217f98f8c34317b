import Foundation
import Testing

@testable import BackoffCLI

/// `--server capacity --capacity-trace FILE`: the capacity server's capacity over time, a step
/// function of factors read from an incident.
@Suite struct CapacityTraceTests {
    /// A trace of 1, then 0.25 from 1 s, then 1 from 3 s is the degradation window [1 s, 3 s) at 0.25:
    /// the same table cell for cell (but the cells that say how the capacity was given), recovery
    /// columns included, in an overload that does not recover.
    @Test func aDropAndReturnIsTheDegradationWindow() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write("time_s,capacity_factor\n0,1\n1,0.25\n3,1\n", to: "capacity.csv")
        let scenario = [
            "simulate", "--server", "capacity", "--arrivals", "poisson:150", "--duration", "8s", "--max-attempts", "6",
            "--timeout", "200ms",
        ]
        let window = Invocation(scenario + ["--degrade-from", "1s", "--degrade-until", "3s", "--degrade-to", "0.25"])
        let traced = Invocation(scenario + ["--capacity-trace", path])
        #expect(window.status == 0 && traced.status == 0, "\(window.stderr)\(traced.stderr)")
        // Every cell but those that say how the capacity was given.
        let given = ["degrade_from_s", "degrade_until_s", "degrade_to", "capacity_trace"]
        let header = traced.rows[0]
        #expect(window.rows[0] == header && traced.rows.count == window.rows.count)
        for (a, b) in zip(traced.rows.dropFirst(), window.rows.dropFirst()) {
            for (name, (x, y)) in zip(header, zip(a, b)) where !given.contains(name) {
                #expect(x == y, "\(name): \(x) traced, \(y) in a window")
            }
        }
        #expect(given.map { traced.field($0) } == ["", "", "", "yes"])
        #expect(given.map { window.field($0) } == ["1", "3", "0.25", "no"])
        // The column is there and holds a number: an overload that does not recover is still
        // above its steady level after the drop ends at 3 s (nil, a missing column, fails here).
        let drain = try #require(
            traced.field("drain_time_s").flatMap(Double.init),
            "drain_time_s: \(traced.field("drain_time_s") ?? "missing")")
        #expect(drain > 0)
        #expect(traced.field("recovered") == "no")
    }

    /// A service takes its time divided by the factor in force when it starts. One client, one
    /// attempt, a fixed 100 ms service: at factor 0.5 it completes at 0.2 s; at factor 4 at 0.025 s;
    /// and a drop at 50 ms does not slow the service that started at 0.
    @Test(arguments: [
        ("time_s,capacity_factor\n0,0.5\n", "0.2"),
        ("time_s,capacity_factor\n0,4\n", "0.025"),
        ("time_s,capacity_factor\n0,1\n0.05,0.1\n", "0.1"),
    ])
    func aServiceIsDividedByTheFactorWhenItStarts(trace: String, completion: String) throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(trace, to: "capacity.csv")
        let result = Invocation([
            "simulate", "--server", "capacity", "--clients", "1", "--workers", "1", "--service", "fixed:100ms",
            "--capacity-trace", path, "--jitter", "none",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.field("mean_completion_s") == completion && result.field("attempts_total") == "1")
    }

    /// Capacity back at full for good is the recovery the recovery trigger waits for; a trace that
    /// never returns has none.
    @Test func theRecoveryIsTheReturnToFullCapacity() throws {
        let directory = TemporaryDirectory()
        let back = try directory.write("time_s,capacity_factor\n0,1\n1,0.5\n2,0.2\n4,1.5\n", to: "capacity.csv")
        let recovering = Invocation([
            "simulate", "--server", "capacity", "--arrivals", "poisson:100", "--duration", "6s",
            "--capacity-trace", back, "--retry-trigger", "recovery",
        ])
        #expect(recovering.status == 0, "\(recovering.stderr)")
        // Retries wait for the signal at 4 s (the return to 1.5), so the retry peak comes after it.
        #expect(
            (recovering.field("peak_retry_time_s").flatMap(Double.init) ?? 0) >= 4
                && recovering.field("recovered") == "yes")
        let never = try directory.write("time_s,capacity_factor\n0,1\n1,0.5\n", to: "never.csv")
        let stuck = Invocation([
            "simulate", "--server", "capacity", "--capacity-trace", never, "--retry-trigger", "recovery",
        ])
        #expect(
            stuck.status == 64 && stuck.stderr.contains("the recovery trigger needs a server that recovers"),
            "\(stuck.stderr)")
    }

    @Test(arguments: [
        (
            ["time_s,failure_probability\n0,1\n"],
            "the trace lacks the column capacity_factor: expected the columns time_s,capacity_factor"
        ),
        (
            ["time_s,capacity_factor\n0,1\n2,0\n"],
            "row 3, column capacity_factor: 0 is not a capacity factor in (0, 1e6]"
        ),
        (
            ["time_s,capacity_factor\n0,1\n2,-1\n"],
            "row 3, column capacity_factor: -1 is not a capacity factor in (0, 1e6]"
        ),
        (["time_s,capacity_factor\n0,1\n2,fast\n"], "row 3, column capacity_factor: 'fast' is not a number"),
        (["time_s,capacity_factor\n1,1\n"], "row 2, column time_s: the trace must start at 0, not 1"),
        (
            ["time_s,capacity_factor\n0,1\n", "--degrade-from", "1s", "--degrade-until", "2s"],
            "a degradation window and a capacity trace both set the capacity; give one"
        ),
    ])
    func aBadCapacityTraceIsAUsageError(arguments: [String], message: String) throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(arguments[0], to: "capacity.csv")
        let output = try directory.write("keep me\n", to: "table.csv")
        let result = Invocation(
            ["simulate", "--server", "capacity", "--capacity-trace", path, "--output", output] + arguments.dropFirst())
        #expect(result.status == 64)
        #expect(result.stderr.contains("--capacity-trace") && result.stderr.contains(message), "\(result.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me\n")
    }

    /// A failure trace that carries capacity_factor is pointed at the option that reads it.
    @Test func aFailureTraceWithCapacityFactorsPointsToTheCapacityServer() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write("time_s,failure_probability,capacity_factor\n0,1,0.5\n", to: "capacity.csv")
        let result = Invocation(["simulate", "--server", "trace:\(path)"])
        #expect(
            result.status == 64 && result.stderr.contains("give the file to --server capacity --capacity-trace"),
            "\(result.stderr)")
    }

    /// The option belongs to the capacity server: elsewhere it is ignored with a warning.
    @Test func elsewhereTheOptionIsIgnoredWithAWarning() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write("time_s,capacity_factor\n0,0.5\n", to: "capacity.csv")
        let result = Invocation(["simulate", "--server", "outage:1s", "--capacity-trace", path, "--clients", "10"])
        #expect(
            result.status == 0
                && result.stderr.contains("'--capacity-trace' does not apply to the outage server; ignored"))
    }
}
