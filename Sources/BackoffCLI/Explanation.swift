import BackoffPolicies
import Foundation

/// One jitter mode's explanation, from the tables of `schedule`, `formula`, `waits` and `simulate`
/// (rows by column name, their cells as those commands print them) and `lint`'s findings, rendered
/// as text, markdown or a JSON line.
struct Explanation {
    let policy: BackoffPolicy
    let clients: Int
    let outage: Duration
    let schedule: [[String: String]]
    let formula: [String: String]
    let waits: [String: String]
    let outageRow: [String: String]
    /// The attempts at the bottom per request that fails everywhere, with layers; `nil` without.
    let amplification: Double?
    let findings: [(rule: LintRule, finding: LintRule.Finding)]
    /// The widest line of the text format: 100 columns, or the terminal's width when narrower.
    var width = 100

    /// The schedule's rows shown: the first 12 attempts and the last (a policy may have a hundred).
    private static let shownAttempts = 12

    func rendered(_ format: ExplanationFormat) -> String {
        switch format {
        case .text: text
        case .markdown: markdown
        case .json: json
        }
    }

    // MARK: The facts, in words

    private var title: String {
        let schedule: String
        switch policy.schedule {
        case .exponential(let m):
            schedule = "exponential, base \(seconds(policy.base)), multiplier \(CSVFormat.number(m))"
        case .constant: schedule = "constant, \(seconds(policy.base))"
        case .linear(let d): schedule = "linear, base \(seconds(policy.base)), increment \(seconds(d))"
        case .immediate: schedule = "immediate"
        }
        let cap = policy.cap.map { "cap \(seconds($0)) (\(policy.capMode.rawValue))" } ?? "no cap"
        return "\(policy.jitter.name) jitter, \(schedule), \(cap), \(policy.maxAttempts) attempts"
            + (policy.maxElapsed.map { ", at most \(seconds($0)) in all" } ?? "")
    }

    private var shownSchedule: [[String: String]] {
        guard schedule.count > Self.shownAttempts + 1 else { return schedule }
        return Array(schedule.prefix(Self.shownAttempts)) + [schedule[schedule.count - 1]]
    }

    /// The mean wait before the row's attempt: the difference of its expected start and the one
    /// before it (both schedule's), to 12 significant digits; `nil` for the first attempt.
    private func meanWait(_ row: [String: String]) -> String? {
        guard let index = schedule.firstIndex(where: { $0["attempt"] == row["attempt"] }), index > 0,
            let start = row["expected_start_s"].flatMap(Double.init),
            let previous = schedule[index - 1]["expected_start_s"].flatMap(Double.init)
        else { return nil }
        return Double(String(format: "%.12g", start - previous)).map(\.decimalText)
    }

    private func window(_ row: [String: String]) -> String {
        guard row["attempt"] != "1" else { return "-" }
        let (low, high) = (cell(row, "window_low_s"), cell(row, "window_high_s"))
        return low == high ? low : "\(low) .. \(high)"
    }

    private var totals: String {
        "mean \(cell(formula, "mean_total_wait_s")) s, p50 \(cell(waits, "p50_total_wait_s")) s, "
            + "p99 \(cell(waits, "p99_total_wait_s")) s, at most \(cell(formula, "max_total_wait_s")) s; "
            + "\(percent(formula["at_cap_fraction"])) of the waits at the cap"
    }

    private var outageSentences: [String] {
        [
            "peak load \(cell(outageRow, "peak_load")) attempts in a \(cell(outageRow, "bucket_s")) s bucket at "
                + "t = \(cell(outageRow, "peak_load_time_s")) s (the \(clients) first attempts go at t = 0); peak retry "
                + "load \(cell(outageRow, "peak_retry_load")) at t = \(cell(outageRow, "peak_retry_time_s")) s",
            "\(cell(outageRow, "successes")) succeed and \(cell(outageRow, "requests_lost")) are lost "
                + "(\(cell(outageRow, "give_ups")) of them out of attempts or time, \(cell(outageRow, "budget_denials")) "
                + "retries refused by a budget); the load is back to the first attempts' "
                + "\(cell(outageRow, "drain_time_s")) s after the outage ends",
        ]
    }

    /// What the budgets cap the amplification to in the outage: simulate's `work_amplification`.
    private var budgetedAmplification: String {
        "in the outage, with the budgets, \(cell(outageRow, "work_amplification")) attempts reached the bottom per "
            + "request (simulate's work_amplification)"
    }

    private var outageTitle: String {
        "A \(seconds(outage)) outage, \(clients) clients failing at t = 0 (simulate --server outage:\(outage.unitText))"
    }

    // MARK: Formats

    private var text: String {
        var lines = wrapped(title) + ["", "Schedule of a request whose every attempt fails (schedule):"]
        let rows =
            [["attempt", "wait window (s)", "mean wait (s)", "expected start (s)"]]
            + shownSchedule.map {
                [
                    $0["attempt"] ?? "", window($0), meanWait($0).map(readable) ?? "-",
                    cell($0, "expected_start_s"),
                ]
            }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (index, row) in rows.enumerated() {
            if index == rows.count - 1, shownSchedule.count < schedule.count { lines.append("  ...") }
            lines.append(
                "  "
                    + row.enumerated().map { $1.padding(toLength: widths[$0] + 3, withPad: " ", startingAt: 0) }
                    .joined().trimmingCharacters(in: .whitespaces))
        }
        lines += [""] + wrapped("Total wait (formula, waits): \(totals).")
        lines += [""] + wrapped(outageTitle + ":")
        for sentence in outageSentences { lines += wrapped(sentence + ".", indent: "  ") }
        if let amplification {
            lines +=
                [""]
                + wrapped(
                    "Across the layers: \(CSVFormat.number(amplification)) attempts at the bottom per "
                        + "request that fails everywhere (budgets aside); \(budgetedAmplification).")
        }
        lines += ["", findings.isEmpty ? "Findings (lint): none." : "Findings (lint):"]
        for (rule, finding) in findings {
            let severity = (finding.severity ?? rule.severity).rawValue
            lines += wrapped("\(severity) \(rule.name): \(finding.text). \(rule.why) (\(rule.citation))", indent: "  ")
        }
        return lines.joined(separator: "\n")
    }

    private var markdown: String {
        var lines = [
            "### \(title)", "", "| attempt | wait window (s) | mean wait (s) | expected start (s) |",
            "|---|---|---|---|",
        ]
        for (index, row) in shownSchedule.enumerated() {
            if index == shownSchedule.count - 1, shownSchedule.count < schedule.count { lines.append("| ... | | | |") }
            let mean = meanWait(row).map(readable) ?? "-"
            lines.append("| \(row["attempt"] ?? "") | \(window(row)) | \(mean) | \(cell(row, "expected_start_s")) |")
        }
        lines += [
            "", "**Total wait** (formula, waits): \(totals).", "",
            "**\(outageTitle)**: "
                + outageSentences.joined(separator: "; ") + ".",
        ]
        if let amplification {
            lines += [
                "",
                "**Across the layers**: \(CSVFormat.number(amplification)) attempts at the bottom per request "
                    + "that fails everywhere (budgets aside); \(budgetedAmplification).",
            ]
        }
        lines += ["", findings.isEmpty ? "**Findings** (lint): none." : "**Findings** (lint):"]
        for (rule, finding) in findings {
            let severity = (finding.severity ?? rule.severity).rawValue
            lines.append("- **\(severity)** `\(rule.name)`: \(finding.text). \(rule.why) (\(rule.citation))")
        }
        return lines.joined(separator: "\n")
    }

    private var json: String {
        let schedule = self.schedule.map { row in
            JSONText.object([
                ("attempt", JSONText.number(row["attempt"])), ("window_low_s", JSONText.number(row["window_low_s"])),
                ("window_high_s", JSONText.number(row["window_high_s"])),
                ("mean_wait_s", JSONText.number(meanWait(row))),
                ("expected_start_s", JSONText.number(row["expected_start_s"])),
            ])
        }
        let totals = JSONText.object([
            ("mean_s", JSONText.number(formula["mean_total_wait_s"])),
            ("p50_s", JSONText.number(waits["p50_total_wait_s"])),
            ("p99_s", JSONText.number(waits["p99_total_wait_s"])),
            ("max_s", JSONText.number(formula["max_total_wait_s"])),
            ("at_cap_fraction", JSONText.number(formula["at_cap_fraction"])),
        ])
        let outage = JSONText.object(
            [("duration_s", CSVFormat.seconds(self.outage)), ("clients", String(clients))]
                + [
                    "peak_load", "peak_load_time_s", "peak_retry_load", "peak_retry_time_s", "bucket_s", "successes",
                    "requests_lost", "give_ups", "budget_denials", "drain_time_s",
                ].map { ($0, JSONText.number(outageRow[$0])) })
        let findings = self.findings.map { rule, finding in
            JSONText.object([
                ("rule", JSONText.string(rule.name)),
                ("severity", JSONText.string((finding.severity ?? rule.severity).rawValue)),
                ("finding", JSONText.string(finding.text)), ("why", JSONText.string(rule.why)),
                ("citation", JSONText.string(rule.citation)),
            ])
        }
        return JSONText.object([
            ("jitter", JSONText.string(policy.jitter.name)), ("policy", JSONText.string(title)),
            ("schedule", "[" + schedule.joined(separator: ",") + "]"), ("total_wait", totals), ("outage", outage),
            ("amplification", amplification.map { CSVFormat.number($0) } ?? "null"),
            (
                "outage_work_amplification",
                amplification == nil ? "null" : JSONText.number(outageRow["work_amplification"])
            ),
            ("findings", "[" + findings.joined(separator: ",") + "]"),
        ])
    }

    // MARK: Helpers

    /// A cell for a person: 4 significant digits (the JSON has the table's own text).
    private func cell(_ row: [String: String], _ column: String) -> String { readable(row[column]) }

    /// A number for a person: 4 significant digits; `n/a` for no value.
    private func readable(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return "n/a" }
        guard let number = Double(value), number.isFinite, value.contains(".") else { return value }
        return CSVFormat.number(Double(String(format: "%.4g", number))!)
    }

    private func seconds(_ duration: Duration) -> String { "\(CSVFormat.seconds(duration)) s" }

    private func percent(_ text: String?) -> String {
        guard let text, let share = Double(text) else { return "n/a" }
        return String(format: "%.1f%%", 100 * share)
    }

    /// `text` in lines of at most ``width`` columns, each after `indent`, continued lines indented two more.
    private func wrapped(_ text: String, indent: String = "") -> [String] {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count + word.count + 1 > width, line.count > indent.count + 2 {
                lines.append(line)
                line = indent + "  "
            }
            line += (line.hasSuffix(" ") || line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }
}
