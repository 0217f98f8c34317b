import Foundation
import RetrySimulation
import Testing

@testable import BackoffCLI

/// `check` recomputes each row's closed forms from its policy columns, so an edited formula column,
/// one from another build, or a row whose policy is not valid fails.
@Suite struct CheckRecomputeTests {
    /// A fresh table from `arguments`, with `edit` applied to its rows (header first), checked.
    func check(_ arguments: String, edit: (inout [[String]]) -> Void = { _ in }) throws -> Invocation {
        let directory = TemporaryDirectory()
        let table = Invocation(arguments)
        #expect(table.status == 0, "\(table.stderr)")
        let rows = CSVReader(text: table.stdout)
        var records = [rows.header] + rows.records
        edit(&records)
        let path = directory.file("table.csv")
        try records.map { $0.map(CSVFormat.field).joined(separator: ",") }.joined(separator: "\n").appending("\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return Invocation(["check", path])
    }

    func set(_ column: String, row: Int, to value: String, in records: inout [[String]]) {
        records[row][records[0].firstIndex(of: column)!] = value
    }

    @Test func untouchedTablesPassWithEveryFormulaRecomputed() throws {
        let waits = try check(
            "waits --runs 2000 --jitter none,full,equal,decorrelated,proportional:0.5 --cap-mode clamp --cap 1s --max-attempts 7"
        )
        #expect(waits.status == 0, "\(waits.stdout)")
        #expect(waits.stdout.contains("5 formula values recomputed from the policy columns: PASS"), "\(waits.stdout)")
        let simulate = try check("simulate --clients 3000 --server outage:1s --jitter none,full,equal --max-attempts 6")
        #expect(simulate.status == 0, "\(simulate.stdout)")
        #expect(
            simulate.stdout.contains("21 formula values recomputed from the policy columns: PASS"), "\(simulate.stdout)"
        )
    }

    /// A `formula --server capacity` table has answers, not means: every capacity_ and fluid_
    /// cell is recomputed from the row's server and policy columns (12 a row here: 8 of the chain
    /// and 4 of the fluid, fluid_tipping_backlog empty on both sides). An answer edited in its
    /// fourth digit, another fluid state, or a server column that makes no server fails, naming
    /// the column; a row under full jitter has no chain and recomputes its fluid alone.
    @Test func aCapacityFormulaTableIsRecomputed() throws {
        let arguments =
            "formula --server capacity --arrivals poisson:150 --workers 2 --queue 3 --service exp:10ms "
            + "--jitter exponential,full --base 20ms --max-attempts 3"
        let untouched = try check(arguments)
        #expect(untouched.status == 0, "\(untouched.stdout)")
        #expect(untouched.stdout.contains("2 rows, 24 comparisons, 0 failed"), "\(untouched.stdout)")
        let edited = try check(arguments) { records in
            let lost = Double(records[1][records[0].firstIndex(of: "capacity_lost_fraction")!])!
            set("capacity_lost_fraction", row: 1, to: String(lost * 1.0001), in: &records)
            set("fluid_state", row: 2, to: "collapsed", in: &records)
        }
        #expect(edited.status == 1)
        #expect(edited.stdout.contains("row 1 (jitter=exponential"), "\(edited.stdout)")
        #expect(edited.stdout.contains("capacity_lost_fraction is '0.0219"), "\(edited.stdout)")
        #expect(edited.stdout.contains("fluid_state is 'collapsed', but"), "\(edited.stdout)")
        #expect(edited.stdout.contains("2 failed"), "\(edited.stdout)")
        for (column, value) in [("workers", "0"), ("queue", "-1"), ("service", "fixed:0ms"), ("arrivals", "burst")] {
            let broken = try check(arguments) { records in set(column, row: 1, to: value, in: &records) }
            #expect(broken.status == 1, "\(column) = \(value): \(broken.stdout)")
            #expect(
                broken.stdout.contains("column \(column) holds '\(value)'"), "\(column) = \(value): \(broken.stdout)")
        }
    }

    /// A hedge's formula written into a row without a hedge: recomputed, the row has none there,
    /// so the invented value fails (it was once compared, unverified, with the measured copies).
    @Test func anInventedHedgeFormulaFails() throws {
        let result = try check("simulate --clients 500 --server capacity --jitter full --max-attempts 3") { records in
            set("formula_copies_per_request", row: 1, to: "1", in: &records)
        }
        #expect(result.status == 1, "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "formula_copies_per_request is 1, but the row's policy has no closed form there (the column should be "
                    + "empty)"), "\(result.stdout)")
    }

    /// Every jitter mode's row is written with the policy columns its formulas need, and read back by
    /// `check`: a decorrelated factor other than the default included, for both decorrelated modes
    /// (decorrelated-monotone's factor was once read but not written, so `check` failed a correct
    /// table). Editing that factor then fails the row, so the column is really read.
    @Test func everyJitterModesRowIsReadBackWithItsOwnParameters() throws {
        let modes =
            "none,full,equal,proportional:0.5,upward:0.3,additive:20ms,decorrelated,decorrelated-monotone,polly-v2"
        let arguments = "waits --runs 2000 --jitter \(modes) --decorrelated-factor 2.5 --max-attempts 6"
        let untouched = try check(arguments)
        #expect(untouched.status == 0, "\(untouched.stdout)")
        #expect(
            untouched.stdout.contains("9 formula values recomputed from the policy columns: PASS"),
            "\(untouched.stdout)")
        for row in [7, 8] {  // decorrelated, decorrelated-monotone
            let edited = try check(arguments) { set("decorrelated_factor", row: row, to: "3", in: &$0) }
            #expect(edited.status == 1, "row \(row): \(edited.stdout)")
            #expect(edited.stdout.contains("FAIL row \(row)"), "\(edited.stdout)")
        }
    }

    /// The formula column edited to the simulated mean (so the old check, mean against its own
    /// formula column, would pass with z = 0).
    @Test func anEditedFormulaColumnFails() throws {
        let result = try check("waits --runs 2000") { records in
            let mean = records[2][records[0].firstIndex(of: "mean_total_wait_s")!]
            set("formula_mean_total_wait_s", row: 2, to: mean, in: &records)
        }
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "FAIL row 2 (jitter=full, base_s=0.1, multiplier=2, cap_s=5, max_attempts=5): formula_mean_total_wait_s "
            ), "\(result.stdout)")
        #expect(result.stdout.contains("disagrees with the closed form recomputed from the row's policy columns, 0.75"))
    }

    /// The example: a quoted jitter "fu,ll" used to pass.
    @Test(arguments: [
        ("jitter", "fu,ll", "column jitter holds 'fu,ll', which is not a jitter mode"),
        ("base_s", "0", "column base_s holds '0', which makes no valid policy: the base must be greater than 0"),
        ("cap_s", "0.01", "column cap_s holds '0.01', which makes no valid policy"),
        ("max_attempts", "three", "column max_attempts holds 'three', not a whole number"),
        ("multiplier", "0.5", "column multiplier holds '0.5', which makes no valid policy"),
        ("cap_mode", "sometimes", "column cap_mode holds 'sometimes', not nominal or clamp"),
    ])
    func aRowWithoutAValidPolicyFailsNamingTheColumn(column: String, value: String, message: String) throws {
        let result = try check("waits --runs 2000") { set(column, row: 2, to: value, in: &$0) }
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL row 2 ("), "\(result.stdout)")
        #expect(result.stdout.contains(message), "\(result.stdout)")
    }

    /// A simulate row's formulas are recomputed from its scenario columns too.
    @Test func simulateFormulasAreRecomputedFromTheScenario() throws {
        let wrong = try check("simulate --clients 3000 --server outage:1s --jitter full") {
            set("formula_successes", row: 1, to: "1234", in: &$0)
        }
        #expect(wrong.status == 1)
        #expect(
            wrong.stdout.contains("formula_successes 1234 disagrees with the closed form recomputed"), "\(wrong.stdout)"
        )
        let server = try check("simulate --clients 3000 --server outage:1s --jitter full") {
            set("server", row: 1, to: "outrage:1s", in: &$0)
        }
        #expect(server.status == 1)
        #expect(
            server.stdout.contains("column server holds 'outrage:1s', which is not a server model"), "\(server.stdout)")
        // Decorrelated jitter has no outage closed form: a formula written there is wrong.
        let invented = try check("simulate --clients 3000 --server outage:1s --jitter decorrelated") {
            set("formula_attempts_per_client", row: 1, to: "2", in: &$0)
        }
        #expect(invented.status == 1)
        #expect(
            invented.stdout.contains("formula_attempts_per_client is 2, but the row's policy has no closed form there"),
            "\(invented.stdout)")
    }

    /// A deadline server's closed form needs the row's timeout (`timeout_s`): recomputed with it, a
    /// formula written with another deadline fails, and one without a timeout has no formula.
    @Test func aDeadlineServersFormulaIsRecomputedWithItsTimeout() throws {
        let command = "simulate --server deadline --arrivals poisson:40 --duration 60s --max-attempts 1 --timeout 50ms"
        let untouched = try check(command) { _ in }
        #expect(untouched.status == 0, "\(untouched.stdout)")
        let otherDeadline = try check(command) { set("timeout_s", row: 1, to: "0.08", in: &$0) }
        #expect(otherDeadline.status == 1)
        #expect(otherDeadline.stdout.contains("formula_successes"), "\(otherDeadline.stdout)")
        let none = try check(command) { set("timeout_s", row: 1, to: "inf", in: &$0) }
        #expect(
            none.stdout.contains("formula_successes is") && none.stdout.contains("has no closed form there"),
            "\(none.stdout)")
    }

    /// The share of copies at faulty hosts is recomputed from `host_fault` and `replicas`: f/K
    /// passes, another count of faulty hosts fails, and the measured share is judged against it.
    @Test func aFaultyHostShareIsRecomputedFromItsHosts() throws {
        let command =
            "simulate --server capacity --replicas 10 --workers 4 --queue 50 --service exp:50ms --arrivals poisson:300 "
            + "--duration 10s --max-attempts 3 --jitter full --host-fault 2:fail-fast"
        let untouched = try check(command) { _ in }
        #expect(untouched.status == 0 && untouched.stdout.contains("1 comparisons"), "\(untouched.stdout)")
        let otherCount = try check(command) { set("host_fault", row: 1, to: "3:fail-fast", in: &$0) }
        #expect(otherCount.status == 1 && otherCount.stdout.contains("formula_faulty_host_share 0.2 disagrees"))
        // Edited to agree, the formula is recomputed as written, and the measured share is 12 standard
        // errors from it.
        let edited = try check(command) {
            set("host_fault", row: 1, to: "3:fail-fast", in: &$0)
            set("formula_faulty_host_share", row: 1, to: "0.3", in: &$0)
        }
        #expect(edited.status == 1 && edited.stdout.contains("faulty_host_share 0.19"), "\(edited.stdout)")
        #expect(!edited.stdout.contains("disagrees with the closed form"), "\(edited.stdout)")
        let unreadable = try check(command) { set("host_fault", row: 1, to: "garbage", in: &$0) }
        #expect(
            unreadable.status == 1 && unreadable.stdout.contains("column host_fault holds 'garbage'"),
            "\(unreadable.stdout)")
        let tooMany = try check(command) { set("host_fault", row: 1, to: "11:fail-fast", in: &$0) }
        #expect(
            tooMany.status == 1 && tooMany.stdout.contains("faulty hosts number 1 to the 10 replicas, not 11"),
            "\(tooMany.stdout)")
    }
}

/// Every reference table that carries a mean with its formula and standard error passes `check`:
/// the tables the toolkit itself writes must not fail its own regression check.
@Suite(.slow) struct ReferenceTablesPassCheckTests {
    static let tables: [String] = {
        let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("notebooks-data")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: data.path)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted().compactMap { name in
            let path = data.appendingPathComponent(name).path
            guard let header = (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").first,
                ClosedFormMean.allCases.contains(where: { mean in
                    [mean.column, mean.formulaColumn, mean.standardErrorColumn].allSatisfy {
                        header.split(separator: ",").map(String.init).contains($0)
                    }
                })
            else { return nil }
            return path
        }
    }()

    @Test func theReferenceTablesAreFound() { #expect(Self.tables.count >= 6, "\(Self.tables)") }

    /// The tables whose rows have neither a closed form nor a fluid, so a check compares nothing:
    /// retries against a rate limit, a capacity server with a queue discipline other than FIFO or
    /// whose clients honour its Retry-After, a replayed trace, stacks over a capacity server. A check
    /// says so and fails ("nothing to check"), where it said PASS after 0 comparisons;
    /// `--allow-empty` accepts it. Each of these models has a table that does compare:
    /// hedging-unloaded, layers-bernoulli, ratelimit-poisson, bimodal-fifo. The capacity tables
    /// under load compare their `fluid_` cells, recomputed from their columns (the fluid is the
    /// limit of ever larger runs, not an expectation of the run, so its value is checked, not the
    /// measured mean against it: `FluidSimulationTests` does that).
    static let modelsWithoutRecomputedForms = [
        "bimodal-adaptive-lifo", "bimodal-codel", "bimodal-lifo", "incident-replay", "overload-honor",
        "ratelimit-adaptive-", "ratelimit-hot-resource-", "ratelimit-standard", "stack-",
    ]

    /// The presets' tables failed before: rows with a shared budget have no formula, which their
    /// columns cannot tell, and a run where every request succeeded had a standard error of 0.
    /// Every other table compares at least one mean, so a check that silently compares nothing fails.
    @Test(arguments: tables)
    func aReferenceTablePassesCheck(path: String) {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let result = Invocation(["check", path])
        if Self.modelsWithoutRecomputedForms.contains(where: name.hasPrefix) {
            #expect(result.status == 1 && result.stdout.contains(" 0 comparisons"), "\(name): \(result.stdout)")
            #expect(result.stdout.contains("nothing to check"), "\(name): \(result.stdout)")
            #expect(Invocation(["check", path, "--allow-empty"]).status == 0, "\(name)")
        } else {
            #expect(result.status == 0, "\(name): \(result.stdout)")
            #expect(!result.stdout.contains(" 0 comparisons"), "\(name) compared nothing: \(result.stdout)")
        }
    }
}
