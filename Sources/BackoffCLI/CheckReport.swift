import BackoffPolicies
import Foundation
import RetrySimulation
import Stochastics

/// What a check found.
struct CheckReport {
    var rows = 0
    var compared = 0
    var withoutFormula = 0
    /// Formula values recomputed from the rows' policy columns, and rows whose columns could not be.
    var recomputed = 0
    var notRecomputed = 0
    var failures: [String] = []
    var unmatched: [String] = []
    var unreadable: [String] = []
    var withoutStandardError: Set<String> = []
    /// Whether a check that compared nothing passes (`--allow-empty`); otherwise it proves nothing
    /// and fails.
    var allowsEmpty = false

    init(allowsEmpty: Bool = false) { self.allowsEmpty = allowsEmpty }

    /// Whether a check compared nothing and that is not allowed.
    var isEmptyCheck: Bool { compared == 0 && !allowsEmpty }

    var passed: Bool { failures.isEmpty && unmatched.isEmpty && unreadable.isEmpty && !isEmptyCheck }

    mutating func add(_ check: MeanCheck, column: String, row: String, against: String) {
        compared += 1
        guard !check.passed else { return }
        failures.append(
            "FAIL \(row): \(column) \(check.observed) vs \(against) \(check.expected), standard error "
                + "\(check.standardError), z = \(check.z)")
    }

    func summary(limit: Double) -> String {
        var text =
            "check: \(rows) rows, \(compared) comparisons, \(failures.count) failed (|z| > \(CSVFormat.number(limit)))"
        text += ", \(unmatched.count) unmatched"
        if withoutFormula > 0 { text += ", \(withoutFormula) without a formula (skipped)" }
        if recomputed > 0 { text += ", \(recomputed) formula values recomputed from the policy columns" }
        if notRecomputed > 0 {
            text += ", \(notRecomputed) rows checked against their formula columns (not recomputable)"
        }
        if !withoutStandardError.isEmpty {
            text +=
                "; not compared (no standard error; use --rel): \(withoutStandardError.sorted().joined(separator: ", "))"
        }
        if isEmptyCheck {
            text +=
                "; nothing to check: no column had a formula or baseline and a standard error (--allow-empty accepts this)"
        }
        let problems = unmatched + unreadable
        return (problems.isEmpty ? "" : problems.joined(separator: "\n") + "\n") + text + (passed ? ": PASS" : ": FAIL")
    }
}
