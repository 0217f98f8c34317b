import Testing

@testable import BackoffCLI

/// `--host-fault`: one bad host of a replica set, its columns, and its refusals with the form.
@Suite struct HostFaultOptionTests {
    static let replicated =
        "simulate --server capacity --replicas 10 --workers 1 --service exp:50ms --queue 100000 "
        + "--arrivals poisson:400 --duration 10s --max-attempts 1 --jitter none"

    /// The columns: the spec as written back, the share measured, and f/K beside it for a random
    /// balancer only. A run without the option writes `none` and empty cells.
    @Test func itsColumnsCarryTheSpecTheShareAndItsFormula() throws {
        let random = Invocation(Self.replicated + " --host-fault 1:fail-fast")
        #expect(random.status == 0 && random.stderr.isEmpty, "\(random.stderr)")
        #expect(random.field("host_fault") == "1:fail-fast:latency=1ms")
        #expect(random.field("formula_faulty_host_share") == "0.1")
        let share = try #require(random.field("faulty_host_share").flatMap(Double.init))
        #expect(abs(share - 0.1) < 0.02, "\(share)")
        let p2c = Invocation(Self.replicated + " --host-fault 1:fail-fast --balancer p2c")
        #expect(p2c.field("formula_faulty_host_share") == "")
        let drawn = try #require(p2c.field("faulty_host_share").flatMap(Double.init))
        #expect(drawn > 0.15, "p2c draws about 1 - 0.9^2 = 0.19 into the fail-fast host: \(drawn)")
        let plain = Invocation(Self.replicated)
        #expect(plain.field("host_fault") == "none" && plain.field("faulty_host_share") == "")
    }

    @Test(arguments: [
        ("", "is not a count of hosts"), ("0:fail-fast", "is not a count of hosts"),
        ("-1:fail-fast", "is not a count of hosts"), ("11:fail-fast", "faulty hosts number 1 to the 10 replicas"),
        ("1", "names no kind"), ("1:boom", "unknown kind 'boom'"), ("1:failing", "needs p=P"),
        ("1:failing:p=nan", "p takes a probability from 0 to 1"), ("1:failing:p=1.5", "from 0 to 1"),
        ("1:slow", "needs service=DIST"), ("1:slow:service=exp:0ms", "a slow host's service takes"),
        ("1:fail-fast:latency=-1ms", "latency takes a duration of at least 0"),
        ("1:down", "needs until=DURATION"), ("1:down:from=5s:until=2s", "is not after"),
        ("1:fail-fast:latency=1ms:latency=2ms", "given twice"), ("1:fail-fast:p=1", "unknown parameter 'p'"),
        ("99999999999999999999:fail-fast", "is not a count of hosts"),
    ])
    func malformedFaultsAreRefusedWithTheForm(value: String, reason: String) {
        let result = Invocation(["simulate", "--server", "capacity", "--replicas", "10", "--host-fault", value])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(value): \(result.stderr)")
        #expect(result.stderr.contains("'--host-fault <spec>'") && result.stderr.contains(reason), "\(result.stderr)")
    }

    /// As every capacity option: another server warns that it does not apply.
    @Test func anotherServerNamesItAsIgnored() {
        let outage = Invocation("simulate --server outage:1s --host-fault 1:fail-fast --clients 5 --jitter full")
        #expect(
            outage.status == 0 && outage.stderr.contains("'--host-fault' does not apply to the outage server"),
            "\(outage.stderr)")
    }
}
