import Retrying
import Testing

@Suite struct RetryAfterHeaderTests {
    /// 1994-11-06 08:49:37 UTC is 784111777 s after 1970 (RFC 9110's example date).
    static let now = 784_111_777.0

    @Test func secondsAndTheThreeDateFormsParse() throws {
        #expect(try RetryAfterHeader.delay("120") == .seconds(120))
        #expect(try RetryAfterHeader.delay("0") == .zero)
        #expect(try RetryAfterHeader.delay("Sun, 06 Nov 1994 08:50:37 GMT", now: Self.now) == .seconds(60))
        #expect(try RetryAfterHeader.delay("Sunday, 06-Nov-94 08:49:47 GMT", now: Self.now) == .seconds(10))
        #expect(try RetryAfterHeader.delay("Sun Nov  6 08:49:38 1994", now: Self.now) == .seconds(1))
        #expect(
            try RetryAfterHeader.delay("Sun, 06 Nov 1994 08:00:00 GMT", now: Self.now) == .zero, "a past date means now"
        )
    }

    @Test(arguments: [
        "", "soon", "-1", "1.5", " 120", "120 ", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Feb 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT", "Sun,  06 Nov 1994 08:49:37 GMT", "Sun Nov 6 08:49:37 1994",
        "99999999999999999999999",
    ])
    func malformedValuesThrowNeverCrash(value: String) {
        #expect(throws: RetryAfterHeader.Malformed.self) { try RetryAfterHeader.delay(value, now: Self.now) }
    }
}
