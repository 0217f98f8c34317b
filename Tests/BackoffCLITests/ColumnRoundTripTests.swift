import Testing

@testable import BackoffCLI

/// Every command's table, read back column by column: each cell of a column declared with the
/// kind of value it holds (a ``TypedColumn``: the policy columns of every table, and the scenario
/// columns `check` rebuilds a simulate row from) reads back as a value that writes the very same
/// text, so `check` recomputes a row from what wrote it.
@Suite struct ColumnRoundTripTests {
    /// The declared columns of a table by name, each with its reader-and-writer.
    static func rewrites<Source>(_ columns: [Column<Source>]) -> [String: @Sendable (String) -> String?] {
        var rewrites: [String: @Sendable (String) -> String?] = [:]
        for column in columns { rewrites[column.name] = column.rewrite }
        return rewrites
    }

    static let simulateColumns = rewrites(SimulateCommand.table)

    /// Command lines covering every kind of each declared column: all jitter modes and the
    /// parametrized ones, caps and no cap, cap rules, first retries, granularities, schedules,
    /// servers, arrivals, service times, hedges and layers.
    static let cases: [(arguments: [String], columns: [String: @Sendable (String) -> String?], declared: Int)] = [
        (["waits", "--runs", "20", "--jitter", "all"], rewrites(WaitsCommand.table), 11),
        (
            [
                "waits", "--runs", "20", "--jitter", "proportional:0.3,upward:0.25,additive:15ms",
                "--cap", "none", "--first-retry", "unjittered", "--granularity", "1ms", "--max-elapsed", "30s",
            ], rewrites(WaitsCommand.table), 11
        ),
        (
            ["waits", "--runs", "20", "--jitter", "decorrelated-monotone,polly-v2", "--decorrelated-factor", "2.5"],
            rewrites(WaitsCommand.table), 11
        ),
        (["formula", "--jitter", "all", "--schedule", "constant"], rewrites(FormulaCommand.policyTable), 11),
        (["presets"], rewrites(PresetsCommand.table), 8),
        (["simulate", "--clients", "100", "--jitter", "all", "--cap-mode", "clamp"], simulateColumns, 20),
        (
            [
                "simulate", "--server", "capacity", "--clients", "100", "--replicas", "2", "--hedge",
                "on:delay=5ms:max-attempts=3", "--service", "mixture:0.9@exp:10ms;0.1@lognormal:50ms:20ms",
                "--arrivals", "poisson:200", "--duration", "1s", "--jitter", "full",
            ], simulateColumns, 20
        ),
        (
            [
                "simulate", "--server", "ratelimit:50/s:burst=5", "--clients", "100", "--arrivals", "uniform:2s",
                "--jitter", "equal", "--layer", "max-attempts=2", "--layer", "max-attempts=3",
            ], simulateColumns, 20
        ),
    ]

    @Test(arguments: 0..<cases.count) func everyDeclaredCellReadsBackAsItself(_ index: Int) throws {
        let (arguments, columns, declared) = Self.cases[index]
        let result = Invocation(arguments)
        #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
        let table = CSVReader(text: result.stdout)
        let names = table.header.filter { columns[$0] != nil }
        #expect(names.count == declared, "\(arguments.joined(separator: " ")): declared columns \(names)")
        #expect(!table.records.isEmpty)
        for record in table.records {
            for name in names {
                let cell = record[table.column(name)!]
                #expect(columns[name]!(cell) == cell, "\(arguments.joined(separator: " ")): \(name) holds '\(cell)'")
            }
        }
    }

    /// Every simulate column that is not declared as text holds a number (or nothing) in every
    /// cell, so `tune` may optimise or bound it; a text column is refused as an objective by name.
    @Test func numericColumnsHoldNumbers() throws {
        let lines =
            Self.cases.map(\.arguments).filter { $0[0] == "simulate" } + [
                [
                    "simulate", "--server", "capacity", "--clients", "200", "--arrivals", "poisson:400", "--duration",
                    "2s",
                    "--degrade-from", "500ms", "--degrade-until", "1s", "--jitter", "full",
                ]
            ]
        let numeric = Set(SimulateCommand.table.filter { !$0.holdsText }.map(\.name))
        for arguments in lines {
            let result = Invocation(arguments)
            #expect(result.status == 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
            let table = CSVReader(text: result.stdout)
            for record in table.records {
                for (name, cell) in zip(table.header, record) where numeric.contains(name) && !cell.isEmpty {
                    #expect(Double(cell) != nil, "\(arguments.joined(separator: " ")): \(name) holds '\(cell)'")
                }
            }
        }
        for column in ["first_retry", "hedge", "quantiles", "recovered", "layer_attempts"] {
            let tune = Invocation(["tune", "--search", "max-attempts=2..4", "--objective", column, "--clients", "20"])
            #expect(tune.status == 64 && tune.stderr.contains("'\(column)' is not a numeric column"), "\(tune.stderr)")
        }
    }
}
