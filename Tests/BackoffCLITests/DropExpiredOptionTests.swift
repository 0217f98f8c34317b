import Testing

@testable import BackoffCLI

/// `--drop-expired`: the capacity server drops queued work whose caller stopped waiting, counted
/// in `expired_drops`; elsewhere it is named as having no effect, and it takes no value.
@Suite struct DropExpiredOptionTests {
    static let overloaded =
        "simulate --server capacity --workers 1 --service exp:10ms --timeout 20ms --clients 200 --jitter full "
        + "--replications 2"

    @Test func dropsAreCountedAndTakeTheWastedWorksPlace() throws {
        let serving = Invocation(Self.overloaded)
        let dropping = Invocation(Self.overloaded + " --drop-expired")
        #expect(serving.status == 0 && dropping.status == 0 && dropping.stderr.isEmpty, "\(dropping.stderr)")
        let drops = try #require(dropping.field("expired_drops").flatMap(Int.init))
        let wasted = try #require(dropping.field("wasted_work").flatMap(Int.init))
        let servedLate = try #require(serving.field("wasted_work").flatMap(Int.init))
        #expect(serving.field("expired_drops") == "0" && drops > 0)
        #expect(wasted < servedLate, "dropping: \(wasted) wasted, serving: \(servedLate)")
    }

    @Test func whereItCannotActItIsNamed() {
        let outage = Invocation("simulate --server outage:1s --drop-expired --clients 10 --jitter full")
        #expect(outage.status == 0 && outage.stderr.contains("'--drop-expired' does not apply to the outage server"))
        let patient = Invocation(
            "simulate --server capacity --drop-expired --clients 10 --jitter full --replications 2")
        #expect(patient.status == 0 && patient.stderr.contains("'--drop-expired' has no effect"), "\(patient.stderr)")
    }

    @Test(arguments: ["--drop-expired=yes", "--drop-expired=", "--drop-expired=0"])
    func itTakesNoValue(option: String) {
        let result = Invocation(["simulate", "--server", "capacity", option, "--clients", "10"])
        #expect(result.status == 64 && result.stdout.isEmpty && result.stderr.contains("--drop-expired"))
    }
}
