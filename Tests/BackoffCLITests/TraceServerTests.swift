import Foundation
import Testing

@testable import BackoffCLI

/// `--server trace:FILE`: an incident's failure rate as a step function.
@Suite struct TraceServerTests {
    /// The columns a simulate row measures (the formula columns and `server` set aside).
    func measured(_ invocation: Invocation) -> [[String]] {
        let table = CSVReader(text: invocation.stdout)
        let keep = table.header.indices.filter {
            !table.header[$0].hasPrefix("formula_") && table.header[$0] != "server"
        }
        return table.records.map { record in keep.map { record[$0] } }
    }

    /// Probability 1 until 2 s and 0 after is `outage:2s`: without jitter 1,000 clients and 8 attempts
    /// make exactly 6,000 attempts (the sixth, at 3.1 s, succeeds), and every mode measures the same.
    @Test func aOneThenZeroTraceIsTheOutage() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write("time_s,failure_probability\n0,1\n2,0\n", to: "trace.csv")
        let none = Invocation([
            "simulate", "--server", "trace:\(path)", "--clients", "1000", "--max-attempts", "8", "--jitter", "none",
        ])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(none.field("attempts_total") == "6000" && none.field("successes") == "1000")
        let traced = Invocation(["simulate", "--server", "trace:\(path)", "--clients", "1000", "--max-attempts", "8"])
        let outage = Invocation(["simulate", "--server", "outage:2s", "--clients", "1000", "--max-attempts", "8"])
        #expect(measured(traced) == measured(outage))
    }

    /// A constant probability is bernoulli:P (one uniform per attempt, as bernoulli draws).
    @Test func aConstantTraceIsBernoulli() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write("time_s,failure_probability\n0,0.3\n", to: "trace.csv")
        let traced = Invocation(["simulate", "--server", "trace:\(path)", "--clients", "2000", "--max-attempts", "4"])
        let bernoulli = Invocation([
            "simulate", "--server", "bernoulli:0.3", "--clients", "2000", "--max-attempts", "4",
        ])
        #expect(traced.status == 0 && measured(traced) == measured(bernoulli))
    }

    /// A step's Retry-After is the delay its failures carry: honoured, the retries wait exactly that.
    @Test func aStepsRetryAfterIsHonoured() throws {
        let directory = TemporaryDirectory()
        let path = try directory.write("time_s,failure_probability,retry_after_s\n0,1,0.75\n1,0,\n", to: "trace.csv")
        let result = Invocation([
            "simulate", "--server", "trace:\(path)", "--clients", "100", "--max-attempts", "5",
            "--jitter", "full", "--retry-after", "honor",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // Attempts at 0, 0.75 and 1.5 s: the third succeeds; each request waited 1.5 s.
        #expect(result.field("attempts_total") == "300" && result.field("mean_total_wait_s") == "1.5")
    }

    @Test(arguments: [
        ("time,failure_probability\n0,1\n", "the trace lacks the column time_s"),
        ("time_s,failure_probability\n0,1\n2,x\n", "row 3, column failure_probability: 'x' is not a number"),
        (
            "time_s,failure_probability\n0,1\n2,1.5\n",
            "row 3, column failure_probability: 1.5 is not a probability in [0, 1]"
        ),
        ("time_s,failure_probability\n0,1\n2,0\n1,1\n", "row 4, column time_s: 1 is before the previous row's time"),
        ("time_s,failure_probability\n0.5,1\n", "row 2, column time_s: the trace must start at 0, not 0.5"),
        ("time_s,failure_probability\n", "has no rows"),
    ])
    func aBadTraceIsAUsageErrorNamingTheRowAndColumn(text: String, message: String) throws {
        let directory = TemporaryDirectory()
        let path = try directory.write(text, to: "trace.csv")
        let output = try directory.write("keep me\n", to: "table.csv")
        let result = Invocation(["simulate", "--server", "trace:\(path)", "--output", output])
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me\n")
    }
}
