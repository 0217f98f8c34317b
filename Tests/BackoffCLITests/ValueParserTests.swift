import Testing

@testable import BackoffCLI

@Suite struct ValueParserTests {
    @Test(arguments: [
        ("250ms", Int64(250_000_000)), ("1.5s", 1_500_000_000), ("2m", 120_000_000_000), ("0.1s", 100_000_000),
        ("3us", 3_000), ("3µs", 3_000), ("7ns", 7), ("1h", 3_600_000_000_000), ("0ms", 0), ("0.000000001s", 1),
    ])
    func durationsConvertExactlyToNanoseconds(text: String, nanoseconds: Int64) {
        #expect(ValueParser.duration(text) == .nanoseconds(nanoseconds))
    }

    @Test(arguments: [
        "", "10", "10 ms", "5x", "-3s", "+3s", "1e3ms", ".5s", "5.s", "0.5ns", "nan", "infs", "99999999999h",
    ])
    func malformedDurationsAreRejected(text: String) {
        #expect(ValueParser.duration(text) == nil)
    }

    /// Virtual time's horizon, 2^62 ns, is the longest duration; one beyond it is read as such, so
    /// its message can give the bound, and a fraction with trailing zeros is as exact as without.
    @Test func durationsEndAtTheHorizon() {
        #expect(ValueParser.duration("4611686018427387904ns") == .nanoseconds(1 << 62))
        #expect(ValueParser.duration("1281023h") == .seconds(1_281_023 * 3600))
        for text in ["4611686018427387905ns", "1281024h", "9223372036854775807ns", "99999999999999999999999h"] {
            #expect(ValueParser.duration(text) == nil, "\(text)")
            #expect(ValueParser.durationReading(text) == .beyondHorizon, "\(text)")
        }
        #expect(ValueParser.duration("1.5000000000000000000000000000s") == .milliseconds(1500))
        #expect(ValueParser.durationReading("1.0000000001s") == .malformed)  // finer than 1 ns
    }

    /// The byte-level parser agrees with a plain String implementation of the same rules on every
    /// string built from the characters that matter (digits, the point, units, signs, spaces).
    @Test func theByteParserAgreesWithTheReference() {
        let pieces = [
            "0", "1", "9", "12", "007", ".", "5", "ns", "us", "µs", "μs", "ms", "s", "m", "h", "x", "-", " ", "e3",
            "99999999999", "",
        ]
        var checked = 0
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    for d in ["", "s", "ms", "h", "ns"] {
                        let text = a + b + c + d
                        #expect(ValueParser.duration(text) == DurationReference.duration(text), "'\(text)'")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 40_000)
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

    /// CSVFormat.number formats whole numbers below 10^15 as integers; it must write exactly what
    /// its definition says (Double's shortest description, without a trailing ".0") for every
    /// double: whole numbers on both sides of 10^15 and 2^53, powers, and random bit patterns.
    @Test func csvNumbersMatchTheirDefinitionEverywhere() {
        func definition(_ value: Double) -> String {
            if value.isNaN { return "nan" }
            if value.isInfinite { return value > 0 ? "inf" : "-inf" }
            if value == 0 { return "0" }
            let text = value.description
            return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
        }
        var values: [Double] = [
            1e15, 1e15 - 1, 1e15 + 1, 9_007_199_254_740_992, 4_503_599_627_370_496.5, -0.0, .nan, -.infinity,
        ]
        for exponent in -20...30 {
            let power = (0..<abs(exponent)).reduce(1.0) { value, _ in exponent < 0 ? value / 10 : value * 10 }
            values += [power, -power, 3 * power, power + 1, power - 1, 1.5 * power]
        }
        for bit in 0..<64 {
            let power = Double(UInt64(1) << UInt64(bit))
            values += [power, power - 1, power + 1, -power]
        }
        let seed: UInt64 = 20_261_201
        var random = TestLCG(state: seed)
        for _ in 0..<200_000 {
            values.append(Double(Int64(bitPattern: random.next()) >> UInt64(random.next() % 64)))
            values.append(Double(bitPattern: random.next()))
        }
        let wrong = values.filter { CSVFormat.number($0) != definition($0) }
        #expect(
            wrong.isEmpty,
            "seed \(seed): \(wrong.prefix(5).map { "\($0): \(CSVFormat.number($0)) vs \(definition($0))" })")
    }

    /// A 64-bit linear congruential generator (Knuth's MMIX constants), for test inputs only.
    struct TestLCG {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// A record quotes exactly the fields RFC 4180 asks for, a CRLF line break included (Swift sees
    /// "\r\n" as one character, equal to neither "\r" nor "\n"), and leaves the rest, non-ASCII
    /// text included, as it is.
    @Test func csvRecordsQuoteWhatMustBeQuoted() {
        #expect(
            CSVFormat.record(["1", "a,b", "two\r\nlines", "one\nline", "ümlaut", ""])
                == "1,\"a,b\",\"two\r\nlines\",\"one\nline\",ümlaut,")
        #expect(CSVFormat.record([]) == "" && CSVFormat.record(["x"]) == "x")
        let table = CSVTable(header: ["say", "n"])
        #expect(table.text == "say,n\n")
    }

    @Test func suggestionsFindLikelyTypos() {
        #expect(Suggestion.closest(to: "atempts", among: ["max-attempts", "base"]) == "max-attempts")
        #expect(Suggestion.closest(to: "bsae", among: ["max-attempts", "base"]) == "base")
        #expect(Suggestion.closest(to: "zzzzzz", among: ["base"]) == nil)
    }
}

/// The String-based duration parser the byte parser replaced, kept as its reference.
enum DurationReference {
    /// Nanoseconds per unit, longest suffix first so `ms` is not read as `m` + `s`.
    static let units: [(suffix: String, nanoseconds: Int64)] = [
        ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
        ("m", 60_000_000_000), ("h", 3_600_000_000_000),
    ]

    /// A non-negative duration such as `250ms`, `1.5s`, `2m`, converted exactly to whole
    /// nanoseconds (decimal digits are scaled as integers, so `0.1s` is 100,000,000 ns). No sign, no
    /// space, no exponent; a value finer than 1 ns or beyond virtual time's horizon, 2^62 ns, is
    /// rejected.
    static func duration(_ text: String) -> Duration? {
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
        let number = text.dropLast(unit.suffix.count)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard parts.count == 1 || (!fraction.isEmpty && fraction.allSatisfy(\.isASCIIDigit)) else { return nil }
        guard let wholeValue = Int64(whole) else { return nil }
        var (total, overflow) = wholeValue.multipliedReportingOverflow(by: unit.nanoseconds)
        guard !overflow else { return nil }
        if !fraction.isEmpty {
            // fraction × unit / 10^digits must be a whole number of nanoseconds.
            var scale: Int64 = 1
            for _ in fraction {
                (scale, overflow) = scale.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
            }
            guard let fractionValue = Int64(fraction) else { return nil }
            let (scaled, fractionOverflow) = fractionValue.multipliedReportingOverflow(by: unit.nanoseconds)
            guard !fractionOverflow, scaled % scale == 0 else { return nil }
            (total, overflow) = total.addingReportingOverflow(scaled / scale)
            guard !overflow else { return nil }
        }
        return total <= 1 << 62 ? .nanoseconds(total) : nil
    }

}
