import Foundation
import Testing

@testable import BackoffCLI

/// `backoff limiter`: the replay of a throttle log, and its refusals of bad logs (each names the
/// row and the column, exits 64 and writes nothing).
@Suite struct LimiterCommandTests {
    func replay(_ csv: String, _ extra: [String] = []) throws -> Invocation {
        let directory = TemporaryDirectory()
        let path = directory.path + "/events.csv"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        return Invocation(["limiter", "--events", path] + extra)
    }

    /// Before a throttle nothing waits; the throttle before the first half-second boundary drops the
    /// fill rate to 0.5/s, and the next send waits for its token: (1 - 0.05 - 0.05) / 0.5 = 1.8 s
    /// (the bucket filled 0.05 between 0.3 and 0.35 s at 1/s, then 0.05 more at 0.5/s by 0.45 s).
    @Test func aColdStartThrottleMakesTheNextSendWait() throws {
        let result = try replay("time_s,event\n0.3,send\n0.35,throttle\n0.45,send\n0.5,success\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.rows[0] == LimiterCommand.table.header())
        #expect(result.field("delay_s", row: 0) == "0" && result.field("enabled", row: 0) == "no")
        #expect(result.field("fill_rate", row: 1) == "0.5" && result.field("enabled", row: 1) == "yes")
        let delay = try #require(result.field("delay_s", row: 2).flatMap(Double.init))
        #expect(abs(delay - 1.8) < 1e-12, "delay \(delay)")
        // The success after the send takes effect once its token came: 0.45 + 1.8 s.
        #expect(result.field("at_s", row: 3).flatMap(Double.init).map { abs($0 - 2.25) < 1e-12 } == true)
    }

    @Test(arguments: [
        ("time_s,event\n1,send\n0.5,success\n", "row 3, column time_s: 0.5 is before the previous row's time"),
        (
            "time_s,event\n0,send\n1,retry\n",
            "row 3, column event: 'retry' is not an event (send, success, throttle or error)"
        ),
        ("time_s,event\nsoon,send\n", "row 2, column time_s: 'soon' is not a number"),
        ("time_s,event\n-1,send\n", "row 2, column time_s: -1 is not a time from 0 to 1e12 s"),
        ("time,event\n0,send\n", "the events file lacks the column time_s"),
        ("time_s,event\n", "the events file has no rows"),
    ])
    func aBadLogIsAUsageErrorNamingItsRowAndColumn(csv: String, message: String) throws {
        let result = try replay(csv)
        #expect(result.status == 64 && result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func anUnknownSDKAScopeALateCreationAndAMissingLogAreRefused() throws {
        let log = "time_s,event\n0.5,send\n"
        let sdk = try replay(log, ["--throttle", "aws-adaptive:sdk=java"])
        #expect(sdk.status == 64 && sdk.stdout.isEmpty)
        #expect(sdk.stderr.contains("'sdk=java': sdk takes the SDK whose limiter to model: botocore, go-v2"))
        let scope = try replay(log, ["--throttle", "aws-adaptive:scope=shared"])
        #expect(scope.status == 64 && scope.stderr.contains("a replay has one limiter"))
        let late = try replay(log, ["--created-at", "0.6"])
        #expect(late.status == 64 && late.stderr.contains("'--created-at 0.6' is after the first event (0.5 s)"))
        let missing = Invocation("limiter")
        #expect(missing.status == 64 && missing.stderr.contains("'--events FILE' is required"))
    }

    /// An `error` event (a non-throttling error) counts as a success for botocore and is not heard
    /// by java-v2: after it botocore's measuring bucket holds one more response.
    @Test func aNonThrottlingErrorIsASuccessExceptForJava() throws {
        let log = "time_s,event\n0.1,success\n0.2,error\n0.6,success\n"
        let measured = { (sdk: String) throws -> Double in
            let run = try self.replay(log, ["--throttle", "aws-adaptive:sdk=\(sdk)", "--created-at", "0"])
            let last = run.stdout.split(separator: "\n").last!.split(separator: ",", omittingEmptySubsequences: false)
            return Double(last[5])!
        }
        let (botocore, java) = (try measured("botocore"), try measured("java-v2"))
        #expect(abs(botocore - 0.8 * 3 / 0.5) < 1e-12, "three responses in the first half second")
        #expect(abs(java - 0.8 * 2 / 0.5) < 1e-12, "two responses in the first half second")
    }
}
