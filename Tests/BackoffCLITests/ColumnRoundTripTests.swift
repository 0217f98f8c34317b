import Foundation
import Testing

@testable import BackoffCLI

/// Every command's table, read back column by column, through the declarations it was written
/// with: each cell of a column declared with the kind of value it holds (a ``TypedColumn``: the
/// policy columns of every table, and the scenario columns `check` rebuilds a simulate row from)
/// reads back as a value that writes the very same text, so `check` recomputes a row from what
/// wrote it; and each cell of every other column not declared as text is a number or empty, so
/// `check` and `tune` may read it as one.
@Suite struct ColumnRoundTripTests {
    /// What a test reads of one declared column.
    struct Declared: Sendable {
        let rewrite: (@Sendable (String) -> String?)?
        let holdsText: Bool
    }

    /// A table's columns by name.
    static func declared<Source>(_ columns: [Column<Source>]) -> [String: Declared] {
        var declared: [String: Declared] = [:]
        for column in columns { declared[column.name] = Declared(rewrite: column.rewrite, holdsText: column.holdsText) }
        return declared
    }

    static let simulateColumns = declared(SimulateCommand.table)
    static let formulaColumns = declared(
        FormulaCommand.policyTable + FormulaCommand.budgetTable + FormulaCommand.outageTable)

    /// A throttle log for `limiter`, written where the case runs.
    static let events = "time_s,event\n0.3,send\n0.35,throttle\n0.45,send\n0.5,success\n0.9,send\n1.2,error\n"

    /// Command lines of every command, covering every kind of each declared column: all jitter modes
    /// and the parametrized ones, caps and no cap, cap rules, first retries, granularities,
    /// schedules, servers, arrivals, service times, hedges and layers. `typed` is how many of the
    /// table's columns are declared with their kind.
    static let cases: [(arguments: [String], columns: [String: Declared], typed: Int)] = [
        (["waits", "--runs", "20", "--jitter", "all"], declared(WaitsCommand.table), 11),
        (
            [
                "waits", "--runs", "20", "--jitter", "proportional:0.3,upward:0.25,additive:15ms",
                "--cap", "none", "--first-retry", "unjittered", "--granularity", "1ms", "--max-elapsed", "30s",
            ], declared(WaitsCommand.table), 11
        ),
        (
            ["waits", "--runs", "20", "--jitter", "decorrelated-monotone,polly-v2", "--decorrelated-factor", "2.5"],
            declared(WaitsCommand.table), 11
        ),
        (["formula", "--jitter", "all", "--schedule", "constant"], formulaColumns, 11),
        (["formula", "--jitter", "full,equal", "--wait-budget", "2s", "--outage", "3s"], formulaColumns, 11),
        (["presets"], declared(PresetsCommand.table), 11),
        (["schedule", "--jitter", "equal", "--max-attempts", "6"], declared(ScheduleCommand.table), 1),
        (["limiter", "--events", "EVENTS"], declared(LimiterCommand.table), 0),
        (["simulate", "--clients", "100", "--jitter", "all", "--cap-mode", "clamp"], simulateColumns, 32),
        (
            [
                "simulate", "--server", "capacity", "--clients", "100", "--replicas", "2", "--hedge",
                "on:delay=5ms:max-attempts=3", "--service", "mixture:0.9@exp:10ms;0.1@lognormal:50ms:20ms",
                "--arrivals", "poisson:200", "--duration", "1s", "--jitter", "full",
            ], simulateColumns, 32
        ),
        (
            [
                "simulate", "--server", "capacity", "--replicas", "4", "--host-fault",
                "1:slow:service=lognormal:50ms:20ms",
                "--arrivals", "poisson:200", "--duration", "1s", "--jitter", "full,none",
            ], simulateColumns, 32
        ),
        (
            [
                "simulate", "--server", "ratelimit:50/s:burst=5", "--clients", "100", "--arrivals", "uniform:2s",
                "--jitter", "equal", "--layer", "max-attempts=2", "--layer", "max-attempts=3",
            ], simulateColumns, 32
        ),
        (
            [
                "simulate", "--server", "capacity", "--clients", "200", "--arrivals", "poisson:400", "--duration", "2s",
                "--degrade-from", "500ms", "--degrade-until", "1s", "--jitter", "full",
            ], simulateColumns, 32
        ),
        // A sweep's rows are simulate's, after a sweep_ column per varied option, and its point_id
        // (a text id the sweep writes itself).
        (
            ["sweep", "simulate", "--clients", "30,40", "--jitter", "full,equal"],
            simulateColumns.merging(["point_id": Declared(rewrite: nil, holdsText: true)]) { $1 }, 32
        ),
        // tune's rows: simulate's policy cells and measures of each candidate, and its own columns.
        (
            [
                "tune", "--search", "max-attempts=2..4,jitter=full|equal", "--objective", "mean_total_wait_s",
                "--clients", "50", "--design", "3",
            ],
            simulateColumns.merging([
                "candidate": Declared(rewrite: nil, holdsText: false),
                "phase": Declared(rewrite: nil, holdsText: true), "feasible": Declared(rewrite: nil, holdsText: true),
                "pareto": Declared(rewrite: nil, holdsText: true),
            ]) { $1 }, 9
        ),
    ]

    @Test(arguments: 0..<cases.count) func everyCellReadsBackThroughItsDeclaration(_ index: Int) throws {
        let (arguments, columns, typed) = Self.cases[index]
        let directory = TemporaryDirectory()
        let events = directory.file("events.csv")
        try Self.events.write(toFile: events, atomically: true, encoding: .utf8)
        let line = arguments.map { $0 == "EVENTS" ? events : $0 }
        let shown = arguments.joined(separator: " ")
        let result = Invocation(line)
        #expect(result.status == 0, "\(shown): \(result.stderr)")
        let table = CSVReader(text: result.stdout)
        #expect(!table.records.isEmpty, "\(shown)")
        let known = table.header.filter { !$0.hasPrefix("sweep_") }
        #expect(known.allSatisfy { columns[$0] != nil }, "\(shown): undeclared columns")
        #expect(known.filter { columns[$0]?.rewrite != nil }.count == typed, "\(shown): typed columns")
        for record in table.records {
            for (name, cell) in zip(table.header, record) {
                guard let column = columns[name] else { continue }
                if let rewrite = column.rewrite {
                    #expect(rewrite(cell) == cell, "\(shown): \(name) holds '\(cell)'")
                } else if !column.holdsText && !cell.isEmpty {
                    #expect(Double(cell) != nil, "\(shown): \(name) holds '\(cell)', not a number")
                }
            }
        }
    }

    /// A text column is refused as `tune`'s objective by name.
    @Test func aTextColumnIsNoObjective() {
        for column in ["first_retry", "hedge", "quantiles", "recovered", "layer_attempts"] {
            let tune = Invocation(["tune", "--search", "max-attempts=2..4", "--objective", column, "--clients", "20"])
            #expect(tune.status == 64 && tune.stderr.contains("'\(column)' is not a numeric column"), "\(tune.stderr)")
        }
    }
}
