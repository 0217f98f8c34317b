import Testing

@testable import BackoffCLI

/// `--retry-host-predicate`: Envoy's previous-hosts predicate, its columns, and its refusals.
@Suite struct RetryHostPredicateOptionTests {
    static let replicated =
        "simulate --server capacity --replicas 3 --workers 8 --service exp:5ms --queue 100 --arrivals poisson:300 "
        + "--duration 10s --max-attempts 4 --jitter full --host-fault 3:failing:p=0.5"

    /// The columns: the predicate as written back, the share of retries that went back to a tried
    /// host, and its closed form with a standard error, within 4 of it. Without the option: none,
    /// and empty cells.
    @Test func itsColumnsCarryTheShareAndItsClosedForm() throws {
        let run = Invocation(Self.replicated + " --retry-host-predicate previous-hosts")
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.field("retry_host_predicate") == "previous-hosts:attempts=1")
        let share = try #require(run.field("retries_to_tried_hosts").flatMap(Double.init))
        let formula = try #require(run.field("formula_retries_to_tried_hosts").flatMap(Double.init))
        let error = try #require(run.field("se_retries_to_tried_hosts").flatMap(Double.init))
        #expect(abs(share - formula) <= 4 * error && formula >= 1.0 / 9, "\(share), \(formula), \(error)")
        let p2c = Invocation(Self.replicated + " --retry-host-predicate previous-hosts --balancer p2c")
        #expect(p2c.field("formula_retries_to_tried_hosts") == "" && p2c.field("se_retries_to_tried_hosts") != "")
        let plain = Invocation(Self.replicated)
        #expect(plain.field("retry_host_predicate") == "none" && plain.field("retries_to_tried_hosts") == "")
        // `check` compares the same share with its formula through its standard error.
        let directory = TemporaryDirectory()
        let checked = Invocation(["check", try directory.write(run.stdout, to: "table.csv")])
        #expect(checked.status == 0, "\(checked.stdout)")
        let edited = run.stdout.replacingOccurrences(of: ",\(formula),", with: ",\(formula + 10 * error),")
        let failed = Invocation(["check", try directory.write(edited, to: "edited.csv")])
        #expect(failed.status == 1 && failed.stdout.contains("retries_to_tried_hosts"), "\(failed.stdout)")
    }

    @Test(arguments: [
        ("", "unknown kind ''"), ("previous-host", "unknown kind 'previous-host'"),
        ("previous-hosts:attempts=-1", "attempts takes a whole number from 0 to 100"),
        ("previous-hosts:attempts=101", "from 0 to 100"), ("previous-hosts:attempts=nan", "from 0 to 100"),
        ("previous-hosts:attempts=1:attempts=2", "given twice"), ("previous-hosts:tries=2", "unknown parameter"),
    ])
    func malformedPredicatesAreRefusedWithTheForm(value: String, reason: String) {
        let result = Invocation([
            "simulate", "--server", "capacity", "--replicas", "2", "--retry-host-predicate", value,
        ])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(value): \(result.stderr)")
        #expect(
            result.stderr.contains("'--retry-host-predicate <predicate>'") && result.stderr.contains(reason),
            "\(result.stderr)")
    }

    /// Below layers a retry is a layer's, not a client's request's: refused, naming the option.
    @Test func layersRefuseIt() {
        let result = Invocation(
            "simulate --server capacity --replicas 2 --retry-host-predicate previous-hosts --layer max-attempts=2")
        #expect(result.status == 64 && result.stdout.isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("--retry-host-predicate") && result.stderr.contains("not below --layer"))
    }
}
