import Foundation
import Testing

@testable import BackoffCLI

/// `backoff explain`: every number it prints is one that schedule, formula, waits or simulate
/// prints for the same options, computed here both ways; the three formats carry the same facts.
@Suite struct ExplainCommandTests {
    /// The JSON line of each jitter mode, parsed.
    private func explained(_ arguments: [String]) throws -> [[String: Any]] {
        let run = Invocation(["explain", "--format", "json"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// A JSON number and a table's cell are the same value (null and an empty or infinite cell
    /// alike). explain writes the cell's own text; Foundation's JSON reader on Linux is not correctly
    /// rounded (it reads 0.3142361111111111 an ulp away), so the two may differ by a few ulps.
    private func same(_ object: Any?, _ cell: String?) -> Bool {
        let json = (object as? NSNumber)?.doubleValue
        let table = cell.flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
        guard let json, let table else { return json == nil && table == nil }
        return abs(json - table) <= 4 * table.ulp
    }

    @Test(arguments: [
        ["--jitter", "full,decorrelated"],
        ["--preset", "aws-sdk-swift", "--max-attempts", "10"],
        ["--preset", "envoy-default", "--clients", "500", "--outage", "3s"],
    ])
    func everyNumberIsTheOtherCommandsNumber(arguments: [String]) throws {
        let lines = try explained(arguments)
        // The other commands with the same options (explain's own turned into simulate's).
        var shared = arguments
        var clients = "1000"
        var outage = "2s"
        if let index = shared.firstIndex(of: "--clients") {
            clients = shared[index + 1]
            shared.removeSubrange(index...index + 1)
        }
        if let index = shared.firstIndex(of: "--outage") {
            outage = shared[index + 1]
            shared.removeSubrange(index...index + 1)
        }
        let formula = Invocation(["formula"] + shared)
        let waits = Invocation(["waits"] + shared)
        let simulate = Invocation(["simulate", "--clients", clients, "--server", "outage:\(outage)"] + shared)
        let schedule = Invocation(["schedule"] + shared)
        #expect(!lines.isEmpty && lines.count == formula.rows.count - 1)
        for (row, line) in lines.enumerated() {
            let totals = try #require(line["total_wait"] as? [String: Any])
            #expect(same(totals["mean_s"], formula.field("mean_total_wait_s", row: row)))
            #expect(same(totals["max_s"], formula.field("max_total_wait_s", row: row)))
            #expect(same(totals["at_cap_fraction"], formula.field("at_cap_fraction", row: row)))
            #expect(same(totals["p50_s"], waits.field("p50_total_wait_s", row: row)))
            #expect(same(totals["p99_s"], waits.field("p99_total_wait_s", row: row)))
            let outageFacts = try #require(line["outage"] as? [String: Any])
            for column in [
                "peak_load", "peak_load_time_s", "peak_retry_load", "peak_retry_time_s", "bucket_s", "successes",
                "requests_lost", "give_ups", "budget_denials", "drain_time_s",
            ] {
                #expect(same(outageFacts[column], simulate.field(column, row: row)), "\(arguments) \(column)")
            }
            let steps = try #require(line["schedule"] as? [[String: Any]])
            let mine = schedule.rows.dropFirst().filter { $0[3] == line["jitter"] as? String }
            #expect(steps.count == mine.count)
            for (index, (step, printed)) in zip(steps, mine).enumerated() {
                #expect(same(step["window_low_s"], printed[4]) && same(step["window_high_s"], printed[5]))
                #expect(same(step["expected_start_s"], printed[6]))
                // The mean wait is the difference of two expected starts, to 12 significant digits.
                guard index > 0 else {
                    #expect(step["mean_wait_s"] is NSNull)
                    continue
                }
                let mean = try #require((step["mean_wait_s"] as? NSNumber)?.doubleValue)
                let difference = Double(printed[6])! - Double(mine[index - 1][6])!
                #expect(abs(mean - difference) <= 1e-11 * max(1, abs(difference)), "\(arguments) attempt \(index + 1)")
            }
        }
    }

    /// Text fits 100 columns; markdown has the schedule's table; lint's findings are in all three.
    @Test func theFormatsCarryTheSameFindings() throws {
        let arguments = [
            "--jitter", "none", "--max-attempts", "4", "--layer", "max-attempts=4", "--layer", "max-attempts=4",
        ]
        let text = Invocation(["explain"] + arguments)
        #expect(text.status == 0 && text.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(text.stdout)")
        #expect(text.stdout.contains("64 attempts at the bottom") && text.stdout.contains("error multiplied-retries"))
        let markdown = Invocation(["explain", "--format", "markdown"] + arguments)
        #expect(markdown.stdout.contains("| attempt | wait window (s) | mean wait (s) | expected start (s) |"))
        #expect(markdown.stdout.contains("- **warning** `no-jitter`"))
        let json = try explained(arguments)
        let findings = try #require(json.first?["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["no-jitter", "multiplied-retries"])
        #expect(same(json.first?["amplification"], "64"))
    }

    /// What the budgets cap the amplification to is simulate's work_amplification for the same
    /// options and outage: read both ways.
    @Test func theBudgetedAmplificationIsSimulates() throws {
        let arguments = [
            "--jitter", "full", "--max-attempts", "4", "--budget", "ratio:percent=0.1", "--layer",
            "max-attempts=4,budget=ratio:percent=0.1",
        ]
        let json = try explained(arguments)
        let simulate = Invocation(["simulate", "--clients", "1000", "--server", "outage:2s"] + arguments)
        let measured = try #require(simulate.field("work_amplification"))
        #expect(same(json.first?["outage_work_amplification"], measured))
        #expect(same(json.first?["amplification"], "16") && Double(measured)! < 16)
        let text = Invocation(["explain"] + arguments).stdout
        #expect(text.contains("with the budgets, \(measured) attempts reached the bottom"), "\(text)")
    }

    @Test(arguments: [
        (["--outage", "0s"], "--outage <duration>"), (["--outage", "-1s"], "--outage <duration>"),
        (["--format", "yaml"], "--format <format>"), (["--clients", "0"], "--clients <count>"),
        (["--clients", "10000001"], "at most 10000000 clients"),
    ])
    func badInputIsAUsageError(arguments: [String], named: String) {
        let run = Invocation(["explain"] + arguments)
        #expect(run.status == 64 && run.stdout.isEmpty, "\(arguments): \(run.status) \(run.stderr)")
        #expect(run.stderr.contains(named), "\(arguments): \(run.stderr)")
    }
}
