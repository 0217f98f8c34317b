import BackoffPolicies

/// The `key=value` parameters of one spec (`--budget`, `--breaker`, `--throttle`, `--hedge`; see
/// `LimitSpec`), read once each: a value that is not of its kind, or outside its range, throws a
/// message naming the parameter, what it takes and its range.
///
/// The parameters come from a spec's text (`on:delay=10ms:max-attempts=3`) or, already split, from
/// another grammar's keys (a layer's `hedge-delay=10ms`); `keyPrefix` names them in messages as the
/// user wrote them.
struct SpecParameters {
    let name: String
    private let values: [String: String]
    private let keyPrefix: String

    /// Splits `text` into its name and parameters; an unknown or repeated key, or a piece
    /// without `=`, is refused by name.
    init(_ text: String, keys: [String]) throws(InvalidValue) {
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        name = pieces[0]
        var values: [String: String] = [:]
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else {
                throw InvalidValue("'\(piece.quotedInMessage)' is not a KEY=VALUE parameter")
            }
            guard keys.contains(pair[0]) else {
                let taken =
                    keys.isEmpty
                    ? "'\(name)' takes no parameters" : "'\(name)' takes \(keys.joined(separator: ", "))"
                throw InvalidValue("unknown parameter '\(pair[0].quotedInMessage)' (\(taken))")
            }
            guard values[pair[0]] == nil else { throw InvalidValue("the parameter '\(pair[0])' is given twice") }
            values[pair[0]] = pair[1]
        }
        self.values = values
        keyPrefix = ""
    }

    /// Parameters already split into keys and values (each key one of the spec's), that messages
    /// name as `keyPrefix` + key.
    init(name: String, values: [String: String], keyPrefix: String) {
        self.name = name
        self.values = values
        self.keyPrefix = keyPrefix
    }

    /// The parameter `key` as the user wrote it.
    func label(_ key: String) -> String { keyPrefix + key }

    /// `'KEY=VALUE'` as the user wrote it, for a message about the value given for `key`.
    func quoted(_ key: String, _ text: String) -> String { "'\(label(key))=\(text.quotedInMessage)'" }

    var isEmpty: Bool { values.isEmpty }

    /// The text given for `key`, if it was given.
    subscript(given key: String) -> String? { values[key] }

    /// A decimal parameter in `range` (`what` says what it is, e.g. "a fraction").
    func number(_ key: String, _ fallback: Double, in range: ClosedRange<Double>, _ what: String)
        throws(InvalidValue) -> Double
    {
        guard let text = values[key] else { return fallback }
        guard let value = ValueParser.number(text), range.contains(value) else {
            throw InvalidValue(
                "\(quoted(key, text)): \(label(key)) takes \(what) from \(CSVFormat.number(range.lowerBound)) to "
                    + "\(CSVFormat.number(range.upperBound))")
        }
        return value
    }

    /// A whole-number parameter in `range`.
    func count(_ key: String, _ fallback: Int, in range: ClosedRange<Int>) throws(InvalidValue) -> Int {
        guard let text = values[key] else { return fallback }
        guard let value = ValueParser.integer(text), range.contains(value) else {
            throw InvalidValue(
                "\(quoted(key, text)): \(label(key)) takes a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return value
    }

    /// A duration parameter greater than 0 (and, as every duration, at most the horizon).
    func duration(_ key: String, _ fallback: Duration) throws(InvalidValue) -> Duration {
        guard let text = values[key] else { return fallback }
        guard let value = ValueParser.duration(text), value > .zero else {
            throw InvalidValue(
                "\(quoted(key, text)): \(label(key)) takes a duration greater than 0 and at most "
                    + "\(ValueParser.horizonText), e.g. 10s")
        }
        return value
    }

    /// A duration parameter of at least 0 that must be given (`what` says what it is for).
    func requiredDuration(_ key: String, _ what: String) throws(InvalidValue) -> Duration {
        guard let text = values[key] else {
            throw InvalidValue("'\(name)' needs \(label(key))=DURATION (\(what)), e.g. \(label(key))=10ms")
        }
        guard let value = ValueParser.duration(text), value >= .zero else {
            throw InvalidValue(
                "\(quoted(key, text)): \(label(key)) takes a duration of at least 0 and at most "
                    + "\(ValueParser.horizonText), e.g. 10ms")
        }
        return value
    }

    /// A duration parameter of at least 0 (`what` says what it is for).
    func nonNegativeDuration(_ key: String, _ fallback: Duration, _ what: String) throws(InvalidValue) -> Duration {
        guard let text = values[key] else { return fallback }
        guard let value = ValueParser.duration(text), value >= .zero else {
            throw InvalidValue(
                "\(quoted(key, text)): \(label(key)) takes a duration of at least 0 and at most "
                    + "\(ValueParser.horizonText) (\(what)), e.g. 5ms")
        }
        return value
    }

    /// A parameter that names one of `choices` (`what` says what each is).
    func choice(_ key: String, _ fallback: String, among choices: [String], _ what: String) throws(InvalidValue)
        -> String
    {
        guard let text = values[key] else { return fallback }
        guard choices.contains(text) else {
            throw InvalidValue("\(quoted(key, text)): \(label(key)) takes \(what)")
        }
        return text
    }

    /// The model's own check, as the message of the spec.
    func model<Value>(_ make: () throws(BudgetError) -> Value) throws(InvalidValue) -> Value {
        do { return try make() } catch { throw InvalidValue("\(error)") }
    }
}
