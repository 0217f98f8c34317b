import BackoffPolicies
import Testing

@testable import BackoffCLI

/// A row's policy columns, written through their declarations (``PolicyColumns``), read back by
/// `check`'s reader (``RowPolicy``) as the very policy that wrote them: for policies drawn at random
/// over every jitter mode with its parameter, schedule, cap, cap rule, first retry and granularity
/// (seeded, so a failure names a policy that fails again).
@Suite struct PolicyColumnRoundTripTests {
    typealias Values = SpecRoundTripTests.Values

    static let seed: UInt64 = 20_261_207
    static let draws = 2_000

    /// The policy columns as every table writes them, in a table of one row.
    static func table(_ policy: BackoffPolicy) -> CSVReader {
        let columns =
            [PolicyColumns.jitter { (policy: BackoffPolicy) in policy }] + PolicyColumns.leading { $0 }
            + PolicyColumns.trailing { $0 } + [PolicyColumns.capMode { $0 }] + PolicyColumns.shape { $0 }
        let text = CSVFormat.record(columns.header()) + "\n" + CSVFormat.record(columns.row(policy)) + "\n"
        return CSVReader(text: text)
    }

    static func jitter(_ values: inout Values) -> Jitter {
        switch values.int(0...9) {
        case 0: .disabled
        case 1: .full
        case 2: .equal
        case 3: .proportional(fraction: values.unit())
        case 4: .upward(fraction: 10 * values.unit())
        case 5: .additive(spread: values.duration(0...10_000_000_000))
        case 6: .decorrelated(factor: 1 + max(10 * values.unit(), 1e-9))
        case 7: .decorrelatedMonotone(factor: 1 + max(10 * values.unit(), 1e-9))
        case 8: .pollyV2
        default: .exponential
        }
    }

    @Test func everyPolicyReadsBackFromItsColumns() throws {
        var values = Values(state: Self.seed)
        var written = 0
        for draw in 0..<Self.draws {
            let base = values.duration(1_000...60_000_000_000)
            let schedule: BackoffSchedule =
                switch values.int(0...2) {
                case 0: .exponential(multiplier: 1 + 9 * values.unit())
                case 1: .constant
                default: .immediate
                }
            let policy: BackoffPolicy
            do {
                policy = try BackoffPolicy(
                    base: base, schedule: schedule,
                    cap: values.bool() ? nil : base * values.int(1...1_000), jitter: Self.jitter(&values),
                    capMode: [nil, CapMode.nominal, .clamp][values.int(0...2)],
                    budget: .maxAttempts(values.int(1...100)),
                    maxElapsed: values.bool() ? nil : values.duration(1...3_600_000_000_000),
                    firstRetry: [FirstRetry.jittered, .unjittered, .immediate][values.int(0...2)],
                    granularity: values.bool() ? nil : values.duration(1...1_000_000_000))
            } catch {
                continue  // a combination the policy refuses (Polly's jitter with a cap rule, say)
            }
            written += 1
            let table = Self.table(policy)
            let read = try RowPolicy.policy(table.records[0], in: table)
            #expect(read == policy, "seed \(Self.seed), draw \(draw): \(table.lines[0])")
        }
        // Most draws are policies: the property is not checked on a handful.
        #expect(written > Self.draws / 2, "only \(written) of \(Self.draws) draws made a policy")
    }

    /// A linear schedule's increment is in no column: the row has no policy to recompute, and says so.
    @Test func aLinearScheduleIsNotGuessed() throws {
        let table = Self.table(try BackoffPolicy(schedule: .linear(increment: .milliseconds(50))))
        #expect(try RowPolicy.policy(table.records[0], in: table) == nil)
    }

    /// A cell that holds no value of its column's kind names the column, its text and the kind.
    @Test func aBadCellNamesItsColumn() throws {
        let table = Self.table(try BackoffPolicy())
        for (column, text, reason) in [
            ("base_s", "soon", "not a number of seconds"), ("max_attempts", "2.5", "not a whole number"),
            ("cap_mode", "tight", "not nominal or clamp"), ("granularity_s", "nan", "not a number of seconds"),
            ("decorrelated_factor", "x", "not a number"),
        ] {
            var record = table.records[0]
            record[table.column(column)!] = text
            #expect {
                try RowPolicy.policy(record, in: table)
            } throws: { error in
                (error as? RowPolicy.Problem)?.description == "column \(column) holds '\(text)', \(reason)"
            }
        }
    }
}
