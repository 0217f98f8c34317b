/// The parsers of option values, shared by every command: each turns the text into a value or
/// throws ``InvalidValue``; the option's declaration supplies the name and the accepted form of
/// the message. Ranges that a model checks (a policy's base, a scenario's fraction) are left to the
/// model, whose error names the option again (see ``PolicyOptions`` and ``ScenarioOptions``).
enum Parsers {
    typealias Parser<Value> = @Sendable (String) throws(InvalidValue) -> Value

    /// A parser from a function that returns `nil` for text not of its form.
    static func form<Value>(_ parse: @escaping @Sendable (String) -> Value?) -> Parser<Value> {
        { text throws(InvalidValue) in
            guard let value = parse(text) else { throw InvalidValue() }
            return value
        }
    }

    /// A parser that also requires `isValid` of the value.
    static func form<Value>(
        _ parse: @escaping @Sendable (String) -> Value?, where isValid: @escaping @Sendable (Value) -> Bool
    ) -> Parser<Value> {
        { text throws(InvalidValue) in
            guard let value = parse(text), isValid(value) else { throw InvalidValue() }
            return value
        }
    }

    /// A duration with a unit, at most virtual time's horizon (see ``ValueParser/duration(_:)``).
    static let duration: Parser<Duration> = { text throws(InvalidValue) in
        switch ValueParser.durationReading(text) {
        case .duration(let value): return value
        case .beyondHorizon: throw InvalidValue("longer than virtual time holds, \(ValueParser.horizonText)")
        case .malformed: throw InvalidValue()
        }
    }

    /// A duration with a unit, or `none` (no limit, no delay): `nil`.
    static let durationOrNone: Parser<Duration?> = { text throws(InvalidValue) in
        if text == "none" { return nil }
        return try duration(text)
    }

    /// A finite decimal number.
    static let number: Parser<Double> = form(ValueParser.number)

    /// A whole number in `range` (written in decimal digits, so never negative). A number outside
    /// it, however many digits it has, is named as out of range; the option's form gives the range
    /// (see ``countForm(_:example:)``).
    static func count(in range: ClosedRange<Int>) -> Parser<Int> {
        { text throws(InvalidValue) in
            guard ValueParser.isDigits(text) else { throw InvalidValue() }
            guard let value = Int(text), range.contains(value) else {
                throw InvalidValue("out of range")
            }
            return value
        }
    }

    /// The form of a count in `range`: "a whole number from 1 to 1000000, e.g. 5".
    static func countForm(_ range: ClosedRange<Int>, example: Int) -> String {
        "a whole number from \(range.lowerBound) to \(range.upperBound), e.g. \(example)"
    }

    /// One of a type's raw values, with a suggestion for a near miss.
    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(_: Value.Type) -> Parser<Value>
    where Value.RawValue == String {
        { text throws(InvalidValue) in
            if let value = Value(rawValue: text) { return value }
            let hint = Suggestion.closest(to: text, among: Value.allCases.map(\.rawValue))
            throw InvalidValue(hint.map { "did you mean '\($0)'?" })
        }
    }

    /// The text itself (a file path).
    static let text: Parser<String> = { $0 }
}
