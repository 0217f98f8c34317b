import Testing

@testable import BackoffCLI

/// `--patience`: an exponential per-attempt timeout in place of `--timeout`'s fixed one, refused
/// when malformed or given with `--timeout`, and named where it cannot act.
@Suite struct PatienceOptionTests {
    static let overloaded =
        "simulate --server capacity --workers 1 --service exp:10ms --queue 100000 --arrivals poisson:120 "
        + "--duration 20s --max-attempts 1 --jitter none --drop-expired"

    /// Every attempt meets a patience of its own: some callers leave, and their queued work is
    /// dropped; an infinite-seeming patience is no timeout at all.
    @Test func callersLeaveAfterTheirOwnPatience() throws {
        let impatient = Invocation(Self.overloaded + " --patience 50ms")
        #expect(impatient.status == 0 && impatient.stderr.isEmpty, "\(impatient.stderr)")
        let drops = try #require(impatient.field("expired_drops").flatMap(Int.init))
        let timeouts = try #require(impatient.field("timeouts").flatMap(Int.init))
        #expect(drops > 0 && timeouts > drops, "\(drops) drops, \(timeouts) timeouts")
        let patient = Invocation(Self.overloaded + " --patience 100000h")
        #expect(patient.field("timeouts") == "0", "\(patient.stdout)")
    }

    @Test(arguments: [
        ("0s", "expected a duration greater than 0"), ("-1s", "expected a duration greater than 0"),
        ("nan", "expected a duration greater than 0"), ("0.1ns", "expected a duration greater than 0"),
        ("99999999999999h", "at most 2^62 ns"), ("", "expected a duration greater than 0"),
    ])
    func malformedPatienceIsRefused(value: String, reason: String) {
        let result = Invocation(["simulate", "--server", "capacity", "--clients", "5", "--patience", value])
        #expect(result.status == 64 && result.stdout.isEmpty, "\(value): \(result.stderr)")
        #expect(result.stderr.contains("'--patience <duration>'") && result.stderr.contains(reason), "\(result.stderr)")
    }

    @Test func itReplacesTheTimeoutAndNeedsAQueue() {
        let both = Invocation("simulate --server capacity --clients 5 --patience 50ms --timeout 20ms")
        #expect(both.status == 64 && both.stdout.isEmpty)
        #expect(both.stderr.contains("replaces the fixed attempt timeout"), "\(both.stderr)")
        let outage = Invocation("simulate --server outage:1s --patience 5ms --clients 5 --jitter full")
        #expect(outage.status == 0 && outage.stderr.contains("'--patience' does not apply to the outage server"))
    }
}
