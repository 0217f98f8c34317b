import Testing

@testable import BackoffCLI

/// `--balancer`: how replicas share copies, read by its codec, refused with the accepted form
/// when malformed, and named where it cannot act.
@Suite struct BalancerOptionTests {
    static let replicated =
        "simulate --server capacity --replicas 8 --workers 1 --service exp:10ms --queue 100000 "
        + "--arrivals poisson:700 --duration 10s --max-attempts 1 --jitter none"

    @Test func randomIsTheDefaultAndChoicesAnswerSooner() throws {
        let plain = Invocation(Self.replicated)
        #expect(plain.status == 0 && Invocation(Self.replicated + " --balancer random").stdout == plain.stdout)
        let random = try #require(plain.field("mean_response_s").flatMap(Double.init))
        let p2c = Invocation(Self.replicated + " --balancer p2c")
        #expect(p2c.status == 0 && p2c.stderr.isEmpty, "\(p2c.stderr)")
        let chosen = try #require(p2c.field("mean_response_s").flatMap(Double.init))
        #expect(chosen < random, "p2c \(chosen), random \(random)")
    }

    @Test(arguments: [
        ("", "unknown kind ''"), ("least-request:choices=0", "choices takes a whole number from 1 to 1000, or all"),
        ("least-request:choices=-1", "from 1 to 1000"), ("least-request:choices=nan", "from 1 to 1000"),
        ("least-request:choices=1001", "from 1 to 1000"), ("p2c:choices=3", "'p2c' takes no parameters"),
        ("round-robin:", "not a KEY=VALUE parameter"), ("Random", "unknown kind 'Random'"),
        ("least-request:choices=2:choices=3", "given twice"),
    ])
    func malformedBalancersAreRefusedWithTheForm(value: String, reason: String) {
        let result = Invocation(["simulate", "--server", "capacity", "--replicas", "2", "--balancer", value])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(value): \(result.stderr)")
        #expect(result.stderr.contains("'--balancer <rule>'") && result.stderr.contains(reason), "\(result.stderr)")
    }

    @Test func whereItCannotActItIsNamed() {
        let single = Invocation("simulate --server capacity --clients 5 --balancer p2c --jitter full")
        #expect(single.status == 0 && single.stderr.contains("'--balancer' has no effect"), "\(single.stderr)")
        let outage = Invocation("simulate --server outage:1s --balancer p2c --clients 5 --jitter full")
        #expect(outage.status == 0 && outage.stderr.contains("'--balancer' does not apply to the outage server"))
    }
}
