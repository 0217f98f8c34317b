@testable import BackoffCLI
import Testing

@Suite struct ValueParserTests {
    @Test(arguments: [
        ("250ms", Int64(250_000_000)), ("1.5s", 1_500_000_000), ("2m", 120_000_000_000), ("0.1s", 100_000_000),
        ("3us", 3_000), ("3µs", 3_000), ("7ns", 7), ("1h", 3_600_000_000_000), ("0ms", 0), ("0.000000001s", 1),
    ])
    func durationsConvertExactlyToNanoseconds(text: String, nanoseconds: Int64) {
        #expect(ValueParser.duration(text) == .nanoseconds(nanoseconds))
    }

    @Test(arguments: ["", "10", "10 ms", "5x", "-3s", "+3s", "1e3ms", ".5s", "5.s", "0.5ns", "nan", "infs", "99999999999h"])
    func malformedDurationsAreRejected(text: String) {
        #expect(ValueParser.duration(text) == nil)
    }

    @Test func numbersAreFiniteDecimals() {
        #expect(ValueParser.number("1.5") == 1.5)
        #expect(ValueParser.number("1e-3") == 0.001)
        #expect(ValueParser.number("nan") == nil)
        #expect(ValueParser.number("inf") == nil)
        #expect(ValueParser.number("0x10") == nil)
        #expect(ValueParser.integer("-1") == nil && ValueParser.integer("12") == 12)
        #expect(ValueParser.list("a,,b") == nil && ValueParser.list("a,b") == ["a", "b"])
    }

    @Test func csvNumbersAreShortestRoundTrip() {
        #expect(CSVFormat.number(5.0) == "5")
        #expect(CSVFormat.number(0.1) == "0.1")
        #expect(CSVFormat.number(-0.0) == "0")
        #expect(CSVFormat.number(1e-5) == "1e-05")
        #expect(CSVFormat.number(.infinity) == "inf")
        #expect(CSVFormat.number(Double?.none) == "")
        #expect(CSVFormat.seconds(nanoseconds: 300_000_000) == "0.3")
        #expect(CSVFormat.field("a,b") == "\"a,b\"" && CSVFormat.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        for value in [0.1, 1.0 / 3, 2.0 / 7, 1e300, Double.leastNonzeroMagnitude] {
            #expect(Double(CSVFormat.number(value)) == value)
        }
    }

    @Test func suggestionsFindLikelyTypos() {
        #expect(Suggestion.closest(to: "atempts", among: ["max-attempts", "base"]) == "max-attempts")
        #expect(Suggestion.closest(to: "bsae", among: ["max-attempts", "base"]) == "base")
        #expect(Suggestion.closest(to: "zzzzzz", among: ["base"]) == nil)
    }
}
